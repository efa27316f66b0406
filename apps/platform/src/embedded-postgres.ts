import { mkdirSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Postgres compiled to WebAssembly (PGlite) behind a local socket, for a
 * `npm start` with nothing installed. One instance holds every service (a
 * schema each). It executes one query at a time, so services keep their pools
 * small and never wait on another service inside a transaction.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined, port: number): Promise<EmbeddedPostgres> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  const server = new WireServer(db);
  await server.listen(port);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
/** Messages after which the client waits for an answer: the end of one unit of work. */
const ENDS_BATCH = new Set(['S', 'Q', 'X', 'H', 'c', 'f', 'p'].map((c) => c.charCodeAt(0)));

/** A simple-protocol Query message (the lock is already held: PGlite's own exec would wait for it forever). */
function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}
const ROLLBACK = queryMessage('rollback');

interface Batch {
  connection: number;
  messages: Uint8Array[];
  reply: (bytes: Uint8Array) => void;
  done: (err?: unknown) => void;
}

/**
 * Every client connection shares PGlite's single session, so the unit PGlite
 * runs must be a whole batch of the extended protocol (Parse, Bind, Execute ...
 * up to Sync), not one message: interleaving two connections' messages mixes
 * their unnamed statements and portals ("portal does not exist", another
 * query's rows). The stock socket server queued message by message (and
 * stopped for good after one failure); this one queues batches, keeps an open
 * transaction to the connection that began it, and rolls it back if that
 * connection goes away.
 */
class BatchQueue {
  private readonly queue: Batch[] = [];
  private running = false;
  /** The connection whose transaction is open: only its batches run until it ends. */
  private owner: number | undefined;
  private readonly closed = new Set<number>();

  constructor(private readonly db: PGlite) {}

  run(batch: Batch): void {
    this.queue.push(batch);
    void this.drain();
  }

  /** A closed connection: its queued work is dropped and its open transaction rolled back. */
  async release(connection: number): Promise<void> {
    this.closed.add(connection);
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i].connection === connection) this.queue.splice(i, 1)[0].done(new Error('connection closed'));
    }
    // Under the lock, like the batches: a batch of this connection still running settles first.
    await this.db.runExclusive(async () => {
      if (this.owner !== connection) return;
      this.owner = undefined;
      if (this.db.isInTransaction()) await this.db.execProtocolRaw(ROLLBACK);
    });
    this.closed.delete(connection);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length) {
        const index = this.owner === undefined ? 0 : this.queue.findIndex((b) => b.connection === this.owner);
        if (index === -1) break; // the transaction's owner has not sent its next batch yet
        const batch = this.queue.splice(index, 1)[0];
        try {
          await this.db.runExclusive(async () => {
            try {
              for (const message of batch.messages) await this.db.execProtocolRawStream(message, { onRawData: batch.reply });
            } finally {
              // Decided under the lock, so a concurrent release sees it.
              const open = this.db.isInTransaction();
              this.owner = open && !this.closed.has(batch.connection) ? batch.connection : undefined;
              if (open && this.closed.has(batch.connection)) await this.db.execProtocolRaw(ROLLBACK);
            }
          });
          batch.done();
        } catch (err) {
          batch.done(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

class WireServer {
  private readonly queue: BatchQueue;
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private nextId = 1;

  constructor(db: PGlite) {
    this.queue = new BatchQueue(db);
  }

  listen(port: number): Promise<void> {
    this.server = createServer((socket) => this.attach(socket));
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private attach(socket: Socket): void {
    const id = this.nextId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let buffer: Buffer = Buffer.alloc(0);
    let started = false;
    let pending: Uint8Array[] = [];
    // A connection's batches run in the order it sent them.
    let previous: Promise<void> = Promise.resolve();
    const reply = (bytes: Uint8Array) => {
      if (bytes.length && socket.writable) socket.write(Buffer.from(bytes));
    };
    const submit = (messages: Uint8Array[]) => {
      previous = previous.then(
        () => new Promise<void>((resolve) => this.queue.run({ connection: id, messages, reply, done: (err) => (err ? socket.destroy() : resolve()) })),
      );
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        if (!started) {
          // Startup phase: untyped messages (length, code).
          if (buffer.length < 8) break;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) break;
          const code = buffer.readInt32BE(4);
          const message = Uint8Array.prototype.slice.call(buffer, 0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST) socket.write('N');
          else if (code !== CANCEL_REQUEST) {
            started = true;
            submit([message]);
          }
          continue;
        }
        if (buffer.length < 5) break;
        const length = 1 + buffer.readInt32BE(1);
        if (buffer.length < length) break;
        const message = Uint8Array.prototype.slice.call(buffer, 0, length);
        buffer = buffer.subarray(length);
        pending.push(message);
        if (ENDS_BATCH.has(message[0])) {
          submit(pending);
          pending = [];
        }
      }
    });
    const closed = () => {
      if (!this.sockets.delete(socket)) return;
      void this.queue.release(id);
    };
    socket.on('close', closed);
    socket.on('error', closed);
  }
}
