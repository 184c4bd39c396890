/**
 * A hosted model played by the stand-in server: its base URL names `models.hosted.test` (not loopback, so the default
 * redaction policy `auto` redacts), which the preloaded hook resolves to 127.0.0.1. Shared by the redaction review tests.
 */
import { join } from 'node:path';
import { ROOT } from './cli.js';
import type { ModelServer } from './model-server.js';

const HOOK = join(ROOT, 'test', 'fixtures', 'resolve-to-loopback.mjs');

/** The environment of a `hippo` run whose model is the stand-in `server` played as a hosted model. */
export const hostedEnv = (server: ModelServer, agent: string, region = 'IE'): Record<string, string> => ({
  HIPPO_AGENT: agent,
  HIPPO_REGION: region,
  HIPPO_MODEL: 'openai:hosted-model',
  HIPPO_BASE_URL: server.baseUrl('openai').replace('127.0.0.1', 'models.hosted.test'),
  HIPPO_API_KEY: 'sk-test-0123456789abcdef',
  NODE_OPTIONS: `--import=${HOOK}`,
});

/** Digits of a text, every script's decimal digits read as ASCII (a model reads them so). */
export const digitsOf = (text: string): string =>
  [...text]
    .map((c) => {
      if (!/\p{Nd}/u.test(c)) return '';
      let first = c.codePointAt(0)!;
      while (/\p{Nd}/u.test(String.fromCodePoint(first - 1))) first--;
      return String((c.codePointAt(0)! - first) % 10);
    })
    .join('');
