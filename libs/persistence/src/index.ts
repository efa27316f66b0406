export { openDatabase, type Database, type DatabaseOptions } from './database';
export { ensureDatabaseExists, databaseNameOf, withDatabaseName } from './database-url';
export { sqlMigration, type SqlMigration } from './migrations';
export { OutboxMessage, InboxEntry, ParkedEvent, messagingTablesSql, messagingUpgradeSql } from './messaging-tables';
export { isUniqueViolation, isClientDataError, isConnectionLost } from './pg-errors';
export { Reader, toNumberedPlaceholders } from './reader';
export { escapeLike } from './like';
