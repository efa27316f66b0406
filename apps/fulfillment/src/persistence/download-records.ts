// Download permissions as the repository stores them; the domain re-exports them
// (persistence never imports the domain).

export interface DownloadPermission {
  id: number;
  orderId: number;
  customerId: number;
  productId: number;
  productName: string;
  downloadId: string;
  downloadName: string;
  file: string;
  downloadsRemaining: number;
  downloadCount: number;
  accessGranted: Date;
  accessExpires: Date | null;
}

export type NewPermission = Omit<DownloadPermission, 'id' | 'downloadCount'>;

export interface PaidLine {
  orderId: number;
  productId: number;
  variationId: number;
  customerId: number;
  paidAt: Date;
}
