import { randomUUID } from 'node:crypto';
import type { GatewayEnvironment, GatewayFeature, GatewaySettings, PaymentGateway, PaymentRequest, PaymentResult, SettingsField } from './gateway';
import type { AvailabilityQuery } from './availability';

const COMMON_FIELDS: SettingsField[] = [
  { id: 'title', type: 'safe_text', title: 'Title', description: 'What the customer sees at checkout.' },
  { id: 'description', type: 'textarea', title: 'Description', description: 'Shown under the title at checkout.' },
  { id: 'instructions', type: 'textarea', title: 'Instructions', description: 'Added to the thank-you page and emails.', default: '' },
];

/** The stored `instructions` setting, trimmed. */
function instructionsOf(settings: GatewaySettings): string {
  return typeof settings.instructions === 'string' ? settings.instructions.trim() : '';
}

const BANK_FIELDS: ReadonlyArray<[string, string]> = [
  ['account_name', 'Account name'],
  ['account_number', 'Account number'],
  ['sort_code', 'Sort code'],
  ['iban', 'IBAN'],
  ['bic', 'BIC / Swift'],
];

function offlineResult(outcome: 'paid' | 'on_hold', message: string): PaymentResult {
  return {
    result: 'success',
    outcome,
    redirect: '',
    transactionId: '',
    declineReason: '',
    message,
  };
}

/** Cash on delivery: the gateway accepts the order at once (spec 3: paid_status paid). */
export class CashOnDeliveryGateway implements PaymentGateway {
  readonly id = 'cod';
  readonly title = 'Cash on delivery';
  readonly description = 'Pay with cash upon delivery.';
  readonly methodTitle = 'Cash on delivery';
  readonly methodDescription = 'Have your customers pay with cash (or by other means) upon delivery.';
  readonly icon = '';
  readonly hasFields = false;
  readonly supports: readonly GatewayFeature[] = ['products'];
  readonly index = 0;
  readonly maxAmount = 0;
  readonly savedCards = false;
  readonly verifyConfig = false;
  readonly settlesLocally = true;
  readonly adminFields: readonly SettingsField[] = [
    ...COMMON_FIELDS,
    {
      id: 'enable_for_methods',
      type: 'multiselect',
      title: 'Enable for shipping methods',
      description: 'Empty = every shipping method.',
      default: [],
      options: { flat_rate: 'Flat rate', free_shipping: 'Free shipping', local_pickup: 'Local pickup' },
    },
  ];

  // The result's message is what the thank-you page shows: the instructions when the shop wrote some.
  async processPayment(_request: PaymentRequest, env: GatewayEnvironment): Promise<PaymentResult> {
    return { ...offlineResult('paid', this.paymentInstructions(env.settings) || 'Pay with cash upon delivery.'), transactionId: `cod_${randomUUID()}` };
  }

  paymentInstructions(settings: GatewaySettings): string {
    return instructionsOf(settings);
  }

  /**
   * `enable_for_methods` (empty: every method) names shipping methods
   * (`flat_rate`); the chosen rate (`flat_rate:1`) must be of one. A cart
   * that ships nothing is not limited (nothing is delivered to pay on).
   */
  availableFor(settings: GatewaySettings, query: AvailabilityQuery): boolean {
    const methods = Array.isArray(settings.enable_for_methods) ? settings.enable_for_methods : [];
    if (!methods.length || !query.shippingMethod) return true;
    return methods.includes(query.shippingMethod.split(':')[0]);
  }
}

/** Direct bank transfer: the order waits on_hold until an admin marks it paid. */
export class BankTransferGateway implements PaymentGateway {
  readonly id = 'bacs';
  readonly title = 'Direct bank transfer';
  readonly description =
    'Make your payment directly into our bank account. Please use your Order ID as the payment reference.';
  readonly methodTitle = 'Direct bank transfer';
  readonly methodDescription = 'Take payments in person via BACS. More commonly known as direct bank/wire transfer.';
  readonly icon = '';
  readonly hasFields = false;
  readonly supports: readonly GatewayFeature[] = ['products'];
  readonly index = 1;
  readonly maxAmount = 0;
  readonly savedCards = false;
  readonly verifyConfig = false;
  readonly settlesLocally = true;
  readonly adminFields: readonly SettingsField[] = [
    ...COMMON_FIELDS,
    { id: 'account_name', type: 'text', title: 'Account name', default: '' },
    { id: 'account_number', type: 'text', title: 'Account number', default: '' },
    { id: 'sort_code', type: 'text', title: 'Sort code', default: '' },
    { id: 'iban', type: 'text', title: 'IBAN', default: '' },
    { id: 'bic', type: 'text', title: 'BIC / Swift', default: '' },
  ];

  async processPayment(_request: PaymentRequest, env: GatewayEnvironment): Promise<PaymentResult> {
    return offlineResult('on_hold', this.paymentInstructions(env.settings) || 'Awaiting bank transfer.');
  }

  /** The instructions, then the account to pay into (the fields set), as the host platform's thank-you page and emails. */
  paymentInstructions(settings: GatewaySettings): string {
    const account = BANK_FIELDS.flatMap(([id, label]) => {
      const value = typeof settings[id] === 'string' ? (settings[id] as string).trim() : '';
      return value ? [`${label}: ${value}`] : [];
    });
    return [instructionsOf(settings), account.length ? ['Our bank details:', ...account].join('\n') : ''].filter(Boolean).join('\n\n');
  }
}
