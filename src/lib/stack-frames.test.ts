import { describe, expect, it } from 'vitest';
import { culpritOf, innermostFirst, isInApp, parseStackTrace } from './stack-frames';

describe('parseStackTrace', () => {
  it('reads V8 frames with and without a function name', () => {
    const stack = parseStackTrace(
      [
        "TypeError: Cannot read properties of undefined (reading 'currency')",
        '    at priceOf (src/checkout/price.ts:42:17)',
        '    at async Router.handle (node_modules/hono/dist/router.js:120:5)',
        '    at node:internal/process/task_queues:95:5',
        '    at new Cart (webpack:///./src/cart.js:3:1)',
      ].join('\n'),
    );
    expect(stack.platform).toBe('javascript');
    expect(stack.header).toEqual([
      "TypeError: Cannot read properties of undefined (reading 'currency')",
    ]);
    expect(stack.frames.map((f) => [f.fn, f.file, f.line, f.column, f.inApp])).toEqual([
      ['priceOf', 'src/checkout/price.ts', 42, 17, true],
      ['Router.handle', 'node_modules/hono/dist/router.js', 120, 5, false],
      [null, 'node:internal/process/task_queues', 95, 5, false],
      ['new Cart', 'webpack:///./src/cart.js', 3, 1, true],
    ]);
  });

  it('reads Python tracebacks with their source lines, innermost last', () => {
    const stack = parseStackTrace(
      [
        'Traceback (most recent call last):',
        '  File "/usr/lib/python3.12/site-packages/flask/app.py", line 880, in full_dispatch',
        '    rv = self.dispatch_request()',
        '  File "/app/payments/charge.py", line 57, in charge',
        '    raise CardDeclined(code)',
        'payments.CardDeclined: card declined',
      ].join('\n'),
    );
    expect(stack.platform).toBe('python');
    expect(stack.header).toEqual([
      'Traceback (most recent call last):',
      'payments.CardDeclined: card declined',
    ]);
    expect(stack.frames).toHaveLength(2);
    expect(stack.frames[1]).toMatchObject({
      fn: 'charge',
      file: '/app/payments/charge.py',
      line: 57,
      code: 'raise CardDeclined(code)',
      inApp: true,
    });
    expect(stack.frames[0]?.inApp).toBe(false);
    expect(innermostFirst(stack).map((f) => f.fn)).toEqual(['charge', 'full_dispatch']);
  });

  it('reads JVM frames, with the standard library not in-app', () => {
    const stack = parseStackTrace(
      [
        'java.lang.IllegalStateException: stock below zero',
        '\tat com.acme.inventory.StockService.reserve(StockService.java:88)',
        '\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1596)',
        '\tat java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
        '\tat com.acme.Native.call(Native Method)',
        '\t... 12 more',
      ].join('\n'),
    );
    expect(stack.platform).toBe('jvm');
    expect(stack.frames.map((f) => [f.fn, f.file, f.line, f.inApp])).toEqual([
      ['com.acme.inventory.StockService.reserve', 'StockService.java', 88, true],
      ['java.base/java.util.ArrayList.forEach', 'ArrayList.java', 1596, false],
      ['java.util.concurrent.ThreadPoolExecutor.runWorker', 'ThreadPoolExecutor.java', 1136, false],
      ['com.acme.Native.call', 'Native Method', null, true],
    ]);
    expect(stack.header).toEqual([
      'java.lang.IllegalStateException: stock below zero',
      '\t... 12 more',
    ]);
  });

  it('keeps text it cannot read as lines, with no frames', () => {
    const text = '0   ShopApp   0x0000000100a3c040 CartView.total + 12\n<script>alert(1)</script>';
    const stack = parseStackTrace(text);
    expect(stack.platform).toBe('unknown');
    expect(stack.frames).toEqual([]);
    expect(stack.header).toEqual(text.split('\n'));
  });
});

describe('isInApp', () => {
  it('leaves out dependencies and runtimes', () => {
    expect(isInApp('/app/src/a.ts')).toBe(true);
    expect(isInApp('/srv/node_modules/x/index.js')).toBe(false);
    expect(isInApp('/usr/local/lib/python3.11/json/decoder.py')).toBe(false);
    expect(isInApp('/venv/lib/python3.11/dist-packages/x.py')).toBe(false);
    expect(isInApp(null, 'kotlin.collections.List.get')).toBe(false);
    expect(isInApp(null, null)).toBe(false);
  });
});

describe('culpritOf', () => {
  it('names the innermost application frame', () => {
    expect(
      culpritOf(
        'Error: x\n    at Router.handle (node_modules/r.js:1:1)\n    at priceOf (src/price.ts:42:17)',
      ),
    ).toBe('priceOf (src/price.ts:42)');
    expect(
      culpritOf(
        'Traceback (most recent call last):\n  File "/app/a.py", line 3, in outer\n  File "/app/b.py", line 9, in inner\nE: x',
      ),
    ).toBe('inner (/app/b.py:9)');
    expect(culpritOf(null)).toBeNull();
    expect(culpritOf('just text')).toBeNull();
  });
});
