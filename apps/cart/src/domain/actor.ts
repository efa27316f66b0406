/** Who a request acts for, as the domain sees it (the gateway's caller context). */
export interface Actor {
  userId: number;
  login: string;
  roles: string[];
  capabilities: string[];
  requestId: string;
  idempotencyKey?: string;
  clientIp?: string;
}
