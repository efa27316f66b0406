// The saga log's record types live in persistence (which stores them); the domain and grpc layers use them from here.
export type { CheckoutPlan, CheckoutRecord, CheckoutStatus, PaymentResultView, StoredError } from '../../persistence/checkout-record';
