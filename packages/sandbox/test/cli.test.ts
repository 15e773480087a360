import { parseCli } from '../src/cli';

test('options of the CLI', () => {
  expect(parseCli([])).toEqual({ host: '127.0.0.1', port: 8787 });
  expect(
    parseCli(['--port', '0', '--host', '0.0.0.0', '--rate-limit', '10/5', '--api-key', 'demo-key-123', '--error-rate', '0.2', '--reset-rate', '0.1', '--latency', '50', '--data', '/tmp/x.json']),
  ).toEqual({
    host: '0.0.0.0',
    port: 0,
    rateLimit: { limit: 10, windowSeconds: 5 },
    demoApiKey: 'demo-key-123',
    faults: { errorRate: 0.2, resetBeforeRate: 0.05, resetAfterRate: 0.05, latencyMs: 50 },
    dataFile: '/tmp/x.json',
  });
  expect(parseCli(['--lost-answer-rate', '0.3'])).toMatchObject({ faults: { serverErrorAfterRate: 0.15, brokenBodyAfterRate: 0.15 } });
  expect(parseCli(['--help'])).toBe('help');
});

test('wrong options are named', () => {
  expect(() => parseCli(['--rate-limit', '120'])).toThrow(/--rate-limit must look like 120\/60/);
  expect(() => parseCli(['--error-rate', '1.5'])).toThrow(/--error-rate must be a number from 0 to 1/);
  expect(() => parseCli(['--lost-answer-rate', '2'])).toThrow(/--lost-answer-rate must be a number from 0 to 1/);
  expect(() => parseCli(['--port', 'eighty'])).toThrow(/--port/);
  expect(() => parseCli(['--api-key', 'short'])).toThrow(/--api-key/);
  expect(() => parseCli(['--colour', 'red'])).toThrow(/colour/);
});
