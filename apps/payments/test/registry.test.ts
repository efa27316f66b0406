import { describe, expect, it } from '@jest/globals';
import { isAvailable } from '../src/domain/gateways/availability';
import type { GatewayFeature, PaymentGateway, PaymentResult } from '../src/domain/gateways/gateway';
import { registeredGateways } from '../src/domain/gateways/registered';
import { GatewayRegistry } from '../src/domain/gateways/registry';
import { checkField, sanitizeSafeText, sanitizeText, sanitizeTextarea } from '../src/domain/settings/field-types';
import { luhnValid, readCard } from '../src/domain/test-card/cards';

let built = 0;
class CappedGateway implements PaymentGateway {
  readonly id = 'capped';
  readonly title = 'Capped';
  readonly description = '';
  readonly methodTitle = 'Capped';
  readonly methodDescription = '';
  readonly icon = '';
  readonly hasFields = false;
  readonly supports: readonly GatewayFeature[] = ['products'];
  readonly index = 3;
  readonly maxAmount = 5000;
  readonly savedCards = false;
  readonly adminFields = [];
  readonly verifyConfig = false;
  constructor() {
    built++;
  }
  async processPayment(): Promise<PaymentResult> {
    return { result: 'success', outcome: 'paid', redirect: '', transactionId: 't', declineReason: '', message: '' };
  }
}

describe('gateway registration (spec 2.11)', () => {
  it('eager classes are built at once; lazy ids only on first use', () => {
    built = 0;
    const registry = new GatewayRegistry().registerLazy({ capped: CappedGateway });
    expect(registry.ids()).toEqual(['capped']);
    expect(built).toBe(0);
    expect(registry.isInstantiated('capped')).toBe(false);
    expect(registry.get('capped')?.id).toBe('capped');
    registry.get('capped');
    expect(built).toBe(1);
    const eager = new GatewayRegistry().registerEager([CappedGateway]);
    expect(eager.isInstantiated('capped')).toBe(true);
    expect(() => eager.registerLazy({ capped: () => new CappedGateway() })).toThrow(/twice/);
  });

  it('a lazy factory may be a function', () => {
    const registry = new GatewayRegistry().registerLazy({ capped: () => new CappedGateway() });
    expect(registry.get('capped')?.maxAmount).toBe(5000);
    expect(registry.get('missing')).toBeUndefined();
  });

  it('the shop registers cod and bacs eagerly and test_card lazily with the card addon only', () => {
    const withCard = registeredGateways(['card']);
    expect(withCard.ids()).toEqual(['cod', 'bacs', 'test_card']);
    expect(withCard.isInstantiated('cod')).toBe(true);
    expect(withCard.isInstantiated('test_card')).toBe(false);
    expect(registeredGateways([]).ids()).toEqual(['cod', 'bacs']);
  });

  it('availability: enabled, within max_amount, subscription support', () => {
    const gateway = new CappedGateway();
    const on = { is_enabled: true, index: 0 };
    expect(isAvailable(gateway, on, { amountMinor: 5000, hasSubscription: false })).toBe(true);
    expect(isAvailable(gateway, on, { amountMinor: 5001, hasSubscription: false })).toBe(false);
    expect(isAvailable(gateway, { ...on, is_enabled: false }, { hasSubscription: false })).toBe(false);
    expect(isAvailable(gateway, on, { hasSubscription: true })).toBe(false);
  });
});

describe('settings field types', () => {
  it('sanitizes text, safe_text and textarea', () => {
    expect(sanitizeText(' a <b>b</b>\n\tc ')).toBe('a b c');
    expect(sanitizeSafeText('<strong onclick="x">ok</strong><script>bad()</script><a href="x">link</a>')).toBe('<strong>ok</strong>link');
    expect(sanitizeTextarea('one <i>x</i>\n  two  ')).toBe('one x\ntwo');
  });

  it('validates checkbox as boolean, password and copy_text as text, multiselect against options', () => {
    expect(checkField({ type: 'checkbox' }, 'yes')).toEqual({ ok: true, value: true });
    expect(checkField({ type: 'checkbox' }, 'maybe').ok).toBe(false);
    expect(checkField({ type: 'password' }, ' keep spaces ')).toEqual({ ok: true, value: ' keep spaces ' });
    expect(checkField({ type: 'password' }, 5).ok).toBe(false);
    expect(checkField({ type: 'copy_text' }, 5).ok).toBe(false);
    expect(checkField({ type: 'multiselect', options: { a: 'A' } }, ['a']).ok).toBe(true);
    expect(checkField({ type: 'multiselect', options: { a: 'A' } }, ['b']).ok).toBe(false);
  });
});

describe('test cards', () => {
  it('reads behaviour, brand and last 4, never keeping the number', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    const card = readCard({ card_number: '4000 0000 0000 3220', exp_month: '12', exp_year: 2040, cvc: '123' });
    expect(card).toEqual({ brand: 'visa', last4: '3220', expMonth: 12, expYear: 2040, behaviour: 'requires_action' });
    expect(readCard({ card_number: '4242424242424242', exp_month: 1, exp_year: 2001 }).behaviour).toBe('expired_card');
    expect(readCard({ card_number: '4242424242424241', exp_month: 1, exp_year: 2040 }).behaviour).toBe('decline');
    expect(() => readCard({ card_number: 4242424242424242, exp_month: 1, exp_year: 2040 })).toThrow();
  });
});
