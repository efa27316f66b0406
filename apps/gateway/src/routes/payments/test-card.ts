import { Type, type Static } from 'typebox';
import type { payments } from '@storefront/proto/payments';
import type { PaymentsClients } from '../../clients';
import type { TypedApp } from '../../context';
import { errorResponses } from '../../http/responses';

const StepQuery = Type.Object({ intent_id: Type.String({ minLength: 1, maxLength: 60, description: 'Payment intent id.' }) });
const StepBody = Type.Object(
  {
    intent_id: Type.String({ minLength: 1, maxLength: 60 }),
    outcome: Type.Union([Type.Literal('approve'), Type.Literal('decline')]),
  },
  { additionalProperties: false },
);
const StepResult = Type.Object(
  { order_id: Type.Integer(), status: Type.String(), paid_status: Type.String() },
  { title: 'TestCardAuthorization' },
);

const tags = ['payments'];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '/': '&#x2F;', '`': '&#x60;', '=': '&#x3D;' };

/** HTML-escapes text for element content and quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'/`=]/g, (c) => ESCAPES[c]);
}

function page(step: payments.GetActionStepResponse): string {
  const open = step.status === 'requires_action';
  const card = step.last4 ? `${escapeHtml(step.brand || 'card')} ending in ${escapeHtml(step.last4)}` : 'your card';
  const status: Record<string, string> = {
    succeeded: 'This payment was already approved.',
    failed: 'This payment was declined.',
    expired: 'This authorization expired; the payment failed.',
    canceled: 'The order was paid another way; this payment was canceled and your card not charged.',
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Authorize payment</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem}</style>
</head>
<body>
<h1>Authorize payment</h1>
<p>${escapeHtml(step.storeName || 'The store')} asks you to authorize a payment of <strong>${escapeHtml(step.amount)} ${escapeHtml(step.currency)}</strong> with ${card} (order #${escapeHtml(step.orderId)}).</p>
<p>This is the test card simulator's stand-in for your bank's 3-D Secure page.</p>
${
  open
    ? `<div id="actions" data-intent="${escapeHtml(step.intentId)}" data-return="${escapeHtml(step.returnUrl)}">
<button type="button" data-outcome="approve">Approve</button>
<button type="button" data-outcome="decline">Decline</button>
</div>
<p id="result" role="status"></p>
<script>
(function () {
  var box = document.getElementById('actions');
  var result = document.getElementById('result');
  box.addEventListener('click', function (e) {
    var outcome = e.target && e.target.getAttribute('data-outcome');
    if (!outcome) return;
    fetch(window.location.pathname, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ intent_id: box.getAttribute('data-intent'), outcome: outcome })
    }).then(function (r) { return r.json(); }).then(function (body) {
      result.textContent = body.code ? body.message : 'Order ' + body.order_id + ': ' + body.status + ' (' + body.paid_status + ')';
      box.hidden = true;
      var back = box.getAttribute('data-return');
      if (back && /^https?:/.test(back) && !body.code) window.location.assign(back);
    });
  });
})();
</script>`
    : `<p>${escapeHtml(status[step.status] ?? 'This payment needs no action.')}</p>`
}
</body>
</html>
`;
}

/** The test_card action step (contract "Payment gateways shipped"): card addon only. */
export function testCardRoutes(app: TypedApp, clients: PaymentsClients): void {
  app.get(
    '/test-card/authorize',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'showTestCardAuthorization',
        tags,
        summary: 'The Approve / Decline page of a test_card payment that requires action (HTML).',
        querystring: StepQuery,
        // Only the page is HTML; errors stay the JSON error object.
        response: {
          200: { description: 'HTML page.', content: { 'text/html': { schema: Type.String() } } },
          ...errorResponses(400, 404),
        },
      } as object,
    },
    async (request, reply) => {
      const { intent_id } = request.query as Static<typeof StepQuery>;
      const step = await clients.testCard.getActionStep({ intentId: intent_id }, request.caller);
      reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header('X-Frame-Options', 'DENY')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'");
      return page(step);
    },
  );

  app.post(
    '/test-card/authorize',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'completeTestCardAuthorization',
        tags,
        summary: 'Approves or declines a test_card payment that requires action; records the result at orders.',
        body: StepBody,
        response: { 200: StepResult, ...errorResponses(400, 404, 409, 410) },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof StepBody>;
      const res = await clients.testCard.completeActionStep({ intentId: body.intent_id, outcome: body.outcome }, request.caller);
      return { order_id: res.orderId, status: res.status, paid_status: res.paidStatus };
    },
  );
}
