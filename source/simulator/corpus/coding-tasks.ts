import type {Replacement} from '../scripts/tools.js';
import {cartCss, clientTs, datesPy, listGo} from './coding-task-files.js';

/**
 * Realistic coding tasks for the `coding` scenario (and the titles of many seeded conversations):
 * a repository, the user's request, what exploring it prints, the failing test, the fix as a
 * real str_replace, a regression test, and the passing run.
 */

export type CodingTask = {
	title: string;
	repository: string;
	branch: string;
	request: string;
	skills: string[];
	plan: [string, string, string];
	explore: [{command: string; output: string}, {command: string; output: string}];
	view: {path: string; content: string};
	failing: {command: string; output: string; exitCode: number};
	diagnosis: string;
	edit: Replacement;
	regression: {path: string; content: string};
	passing: {command: string; output: string};
	web?: {url: string; page: string; clickIndex: number; clickLabel: string; afterClick: string};
	hook?: {command: string; stdout: string};
	summary: string;
};

export const codingTasks: readonly CodingTask[] = [
	{
		title: 'Fix ISO week parsing in invoice dates',
		repository: 'acme-finance/invoice-parser',
		branch: 'main',
		request:
			'tests/test_parser.py::test_iso_week_dates started failing after we bumped python-dateutil to 2.9. Please find the cause, fix it, add a regression test and make sure `pytest -q tests/test_parser.py` passes.',
		skills: ['github'],
		plan: ['Reproduce the failing ISO week test', 'Fix week-date parsing in src/invoice_parser/dates.py', 'Add a regression test and run the parser suite'],
		explore: [
			{
				command: 'git log --oneline -5',
				output: `9f2c1ab Bump python-dateutil from 2.8.2 to 2.9.0 (#231)
4e81d07 Accept supplier dates with trailing time zone names
c03a5f2 Add VAT breakdown to invoice model
7b9e4d1 CI: run tests on Python 3.12
21d8c6e Initial parser for EDI and PDF invoices`,
			},
			{
				command: 'ls src/invoice_parser tests',
				output: `src/invoice_parser:
__init__.py  amounts.py  dates.py  edi.py  models.py  pdf.py

tests:
conftest.py  fixtures  test_amounts.py  test_edi.py  test_parser.py`,
			},
		],
		view: {path: 'src/invoice_parser/dates.py', content: datesPy},
		failing: {
			command: 'pytest -q tests/test_parser.py',
			exitCode: 1,
			output: `..F.........                                                             [100%]
=================================== FAILURES ===================================
_____________________________ test_iso_week_dates ______________________________

    def test_iso_week_dates():
>       assert parse_invoice_date("2026-W01-1") == date(2025, 12, 29)
E       AssertionError: assert datetime.date(2026, 1, 5) == datetime.date(2025, 12, 29)
E        +  where datetime.date(2026, 1, 5) = parse_invoice_date('2026-W01-1')

tests/test_parser.py:48: AssertionError
=========================== short test summary info ============================
FAILED tests/test_parser.py::test_iso_week_dates - AssertionError: assert datetime.date(2026, 1, 5) == datetime.date(2025, 12, 29)
1 failed, 11 passed in 0.38s`,
		},
		diagnosis:
			'dateutil 2.9 stopped handling "YYYY-Www-D" itself, so our fallback _week_date runs now, and it is wrong: it takes week 1 as the first full week of January instead of the ISO week that contains January 4th. date.fromisocalendar implements ISO 8601 week dates exactly.',
		edit: {
			path: 'src/invoice_parser/dates.py',
			before: datesPy,
			oldStr: `    monday = date(year, 1, 1) + timedelta(days=(7 - date(year, 1, 1).weekday()) % 7)
    return monday + timedelta(weeks=week - 1, days=day - 1)`,
			newStr: `    # ISO 8601: week 1 is the week that contains January 4th, so it can start in December.
    return date.fromisocalendar(year, week, day)`,
		},
		regression: {
			path: 'tests/test_iso_week.py',
			content: `from datetime import date

import pytest

from invoice_parser.dates import parse_invoice_date


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2026-W01-1", date(2025, 12, 29)),
        ("2020-W53-7", date(2021, 1, 3)),
        ("2024-W10-3", date(2024, 3, 6)),
    ],
)
def test_iso_week_dates_cross_year_boundaries(raw, expected):
    assert parse_invoice_date(raw) == expected
`,
		},
		passing: {command: 'pytest -q tests/test_parser.py tests/test_iso_week.py', output: `...............                                                          [100%]\n15 passed in 0.41s`},
		hook: {command: '.openhands/hooks/ruff-format.sh', stdout: '1 file reformatted, 0 files left unchanged'},
		summary:
			'Fixed ISO week-date parsing in src/invoice_parser/dates.py: the fallback computed week 1 as the first full week of January, which is wrong whenever January 1st falls on Friday to Sunday. It now uses date.fromisocalendar. Added tests/test_iso_week.py covering year boundaries; `pytest -q tests/test_parser.py tests/test_iso_week.py` passes (15 tests).',
	},
	{
		title: 'Checkout button overlaps the cart total on mobile',
		repository: 'octo-labs/storefront-web',
		branch: 'main',
		request:
			'On 375px wide screens the "Proceed to checkout" button overlaps the cart total (issue #412). Fix the CartSummary layout, make the mobile screenshot test pass and check it in the browser at http://localhost:3000/cart.',
		skills: ['github', 'npm'],
		plan: ['Reproduce the overlap with the mobile Playwright test', 'Fix CartSummary.module.css for narrow screens', 'Check /cart in the browser and add a changelog entry'],
		explore: [
			{
				command: 'git log --oneline -5 -- src/components/cart',
				output: `d41c9e2 Move checkout button into the summary bar (#398)
8a7f310 Show shipping estimate in the cart summary
1c2be55 Cart: use CSS modules
f09a6c3 Add coupon field to the cart page
5e3d8a0 Cart summary component`,
			},
			{
				command: 'ls src/components/cart tests',
				output: `src/components/cart:
CartItem.tsx  CartList.tsx  CartSummary.module.css  CartSummary.tsx  index.ts

tests:
cart-mobile.spec.ts  checkout.spec.ts  playwright.config.ts`,
			},
		],
		view: {path: 'src/components/cart/CartSummary.module.css', content: cartCss},
		failing: {
			command: 'npx playwright test tests/cart-mobile.spec.ts --project=mobile-chrome',
			exitCode: 1,
			output: `Running 1 test using 1 worker

  ✘  1 [mobile-chrome] › tests/cart-mobile.spec.ts:8:5 › cart summary fits on a 375px screen (2.3s)

  1) [mobile-chrome] › tests/cart-mobile.spec.ts:8:5 › cart summary fits on a 375px screen ──────

    Error: Checkout button overlaps the total: button box {x: 219, y: 611, width: 140, height: 44} intersects total box {x: 16, y: 618, width: 231, height: 30}

      14 |   const total = await page.getByTestId('cart-total').boundingBox();
      15 |   const button = await page.getByRole('button', {name: 'Proceed to checkout'}).boundingBox();
    > 16 |   expect(overlaps(total!, button!), describe(total!, button!)).toBe(false);
         |                                                                ^

  1 failed
    [mobile-chrome] › tests/cart-mobile.spec.ts:8:5 › cart summary fits on a 375px screen`,
		},
		diagnosis:
			'The button is absolutely positioned since #398, so on narrow screens it ignores the flex layout and sits on top of the total. Let the summary wrap and make the button a normal flex child that takes the full width when it wraps.',
		edit: {
			path: 'src/components/cart/CartSummary.module.css',
			before: cartCss,
			oldStr: `.checkout {
  position: absolute;
  right: 16px;
  bottom: 16px;
}`,
			newStr: `.checkout {
  flex: 1 0 100%;
}

@media (min-width: 640px) {
  .checkout {
    flex: 0 0 auto;
  }
}`,
		},
		regression: {path: 'changes/412.fix.md', content: 'Cart: the checkout button no longer overlaps the cart total on narrow screens.\n'},
		passing: {
			command: 'npx playwright test tests/cart-mobile.spec.ts --project=mobile-chrome',
			output: `Running 1 test using 1 worker

  ✓  1 [mobile-chrome] › tests/cart-mobile.spec.ts:8:5 › cart summary fits on a 375px screen (1.9s)

  1 passed (3.4s)`,
		},
		web: {
			url: 'http://localhost:3000/cart',
			page: `Navigated to http://localhost:3000/cart
Title: Your cart · Storefront

Interactive elements:
[0] <a href="/">Storefront</a>
[1] <input placeholder="Search products">
[2] <a href="/account">Account</a>
[3] <button>Remove Trail Runner 2 (size 42)</button>
[4] <select>Quantity: 1</select>
[5] <input placeholder="Coupon code">
[6] <button>Apply</button>
[7] <button>Proceed to checkout</button>

Cart total: €129.90 (incl. VAT) · Shipping: free`,
			clickIndex: 7,
			clickLabel: 'Proceed to checkout',
			afterClick: `Navigated to http://localhost:3000/checkout/shipping
Title: Shipping · Checkout

Interactive elements:
[0] <a href="/cart">Back to cart</a>
[1] <input placeholder="Full name">
[2] <input placeholder="Street and number">
[3] <button>Continue to payment</button>`,
		},
		summary:
			'The checkout button was absolutely positioned (since #398) and sat on top of the total on narrow screens. CartSummary.module.css now lets it wrap as a full-width flex child below 640px. The mobile Playwright test passes, /cart looks right in the browser and the button still leads to checkout. Added changes/412.fix.md.',
	},
	{
		title: 'Return next_page_id when the orders page is full',
		repository: 'northwind/orders-api',
		branch: 'main',
		request:
			'GET /v1/orders never returns next_page_id when a page is exactly full, so the mobile app stops paging after the first 50 orders. Fix the pagination in internal/orders/list.go and add a test.',
		skills: ['github'],
		plan: ['Reproduce with a test for a full page', 'Fetch one extra row to detect the next page', 'Run the orders package tests'],
		explore: [
			{
				command: 'git log --oneline -5 -- internal/orders',
				output: `b7d2e91 orders: cap page size at 100
0c4f5a8 orders: filter by customer id
e93b172 orders: offset pagination
55aa0d3 orders: postgres store
3f1e6c9 Initial orders service`,
			},
			{
				command: 'grep -rn "ListOrders" --include=*.go internal | head',
				output: `internal/orders/list.go:15:	rows, err := s.store.ListOrders(ctx, q.CustomerID, offset, limit)
internal/orders/store.go:22:func (s *PostgresStore) ListOrders(ctx context.Context, customerID string, offset, limit int) ([]Order, error) {
internal/orders/store_test.go:31:	rows, err := store.ListOrders(ctx, "c-1", 0, 10)`,
			},
		],
		view: {path: 'internal/orders/list.go', content: listGo},
		failing: {
			command: 'go test ./internal/orders/...',
			exitCode: 1,
			output: `--- FAIL: TestList_FullPageHasNext (0.00s)
    list_test.go:57: NextPageID = "", want "50"
FAIL
FAIL	github.com/northwind/orders-api/internal/orders	0.014s
FAIL`,
		},
		diagnosis:
			'List asks the store for exactly `limit` rows and then checks len(rows) > limit, which can never be true, so NextPageID is never set. Ask for limit+1 rows: the extra row only tells us that another page exists.',
		edit: {
			path: 'internal/orders/list.go',
			before: listGo,
			oldStr: '	rows, err := s.store.ListOrders(ctx, q.CustomerID, offset, limit)',
			newStr: '	// One extra row tells us whether another page exists.\n	rows, err := s.store.ListOrders(ctx, q.CustomerID, offset, limit+1)',
		},
		regression: {
			path: 'internal/orders/list_full_page_test.go',
			content: `package orders

import (
	"context"
	"testing"
)

func TestList_ExactlyOnePage(t *testing.T) {
	svc := newTestService(t, 50)
	page, err := svc.List(context.Background(), Query{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if page.NextPageID != "" {
		t.Fatalf("NextPageID = %q, want empty for exactly one page", page.NextPageID)
	}
}
`,
		},
		passing: {command: 'go test ./internal/orders/...', output: 'ok  	github.com/northwind/orders-api/internal/orders	0.019s'},
		summary:
			'List requested exactly `limit` rows and then checked for more than `limit`, so next_page_id was never set. It now requests limit+1 rows and trims the extra one. Added TestList_ExactlyOnePage next to the existing full-page test; `go test ./internal/orders/...` passes.',
	},
	{
		title: 'Replace the deprecated request package with undici',
		repository: 'acme/notifications-service',
		branch: 'develop',
		request:
			'Replace the deprecated `request` package in src/http/client.ts with undici, keep the retry behaviour (3 attempts, exponential backoff), and make `npm test` pass. Open the change against develop.',
		skills: ['npm'],
		plan: ['Remove request and add undici', 'Port postJson to undici with the same retries', 'Run the type check and the test suite'],
		explore: [
			{command: 'npm ls request', output: 'notifications-service@3.8.1 /workspace/project/notifications-service\n└── request@2.88.2'},
			{
				command: 'npm uninstall request @types/request && npm install undici@7',
				output: `removed 47 packages, and audited 312 packages in 3s

added 1 package, and audited 313 packages in 2s

found 0 vulnerabilities`,
			},
		],
		view: {path: 'src/http/client.ts', content: clientTs},
		failing: {
			command: 'npx tsc --noEmit',
			exitCode: 2,
			output: `src/http/client.ts(1,21): error TS2307: Cannot find module 'request' or its corresponding type declarations.
src/http/client.ts(11,55): error TS7006: Parameter 'error' implicitly has an 'any' type.`,
		},
		diagnosis:
			'undici.request returns {statusCode, body} and rejects on network errors, so the callback wrapper can go. Keep the loop and the backoff, and read the body as text so callers see the same SendResult.',
		edit: {
			path: 'src/http/client.ts',
			before: clientTs,
			oldStr: `			return await new Promise<SendResult>((resolve, reject) => {
				request.post({url, json: payload, timeout: 10_000}, (error, response, body) => {
					if (error) reject(error);
					else resolve({status: response.statusCode, body: JSON.stringify(body)});
				});
			});`,
			newStr: `			const response = await request(url, {
				method: 'POST',
				headers: {'content-type': 'application/json'},
				body: JSON.stringify(payload),
				headersTimeout: 10_000,
				bodyTimeout: 10_000,
			});
			return {status: response.statusCode, body: await response.body.text()};`,
		},
		regression: {
			path: 'src/http/client.retry.test.ts',
			content: `import {MockAgent, setGlobalDispatcher} from 'undici';
import {expect, test} from 'vitest';
import {postJson} from './client.js';

test('retries twice before giving up', async () => {
	const agent = new MockAgent();
	agent.disableNetConnect();
	setGlobalDispatcher(agent);
	const pool = agent.get('https://hooks.example');
	pool.intercept({path: '/notify', method: 'POST'}).replyWithError(new Error('ECONNRESET')).times(2);
	pool.intercept({path: '/notify', method: 'POST'}).reply(202, {queued: true});
	await expect(postJson('https://hooks.example/notify', {id: 1})).resolves.toMatchObject({status: 202});
});
`,
		},
		passing: {
			command: 'npx tsc --noEmit && npm test',
			output: ` ✓ src/http/client.test.ts (4 tests) 38ms
 ✓ src/http/client.retry.test.ts (1 test) 812ms
 ✓ src/templates/render.test.ts (9 tests) 21ms

 Test Files  3 passed (3)
      Tests  14 passed (14)
   Duration  1.62s`,
		},
		summary:
			'Replaced `request` with undici in src/http/client.ts: postJson keeps 3 attempts with exponential backoff, now using undici.request with 10 s header and body timeouts. Removed request and @types/request from package.json, added src/http/client.retry.test.ts with a MockAgent. Type check and all 14 tests pass.',
	},
];
