import { asciiDigit, DEFAULT_REDACT_KINDS, Redactor } from '../../src/core/facts/redact.js';
import { DEFAULT_REGIONS } from '../../src/core/facts/region.js';

/**
 * The library-level leak check of the issue 27 reviews (rev27k, rev27m, rev27n): redaction as the CLI has it (every
 * default kind, the default candidate regions), and whether a value goes out — the request is not stopped and 8
 * consecutive letters and digits of it (any script's digits read as ASCII, NFKC) are in what is sent, outside
 * placeholders.
 */
export const redacts = (text: string, region = 'IE') => {
  const r = new Redactor({ kinds: DEFAULT_REDACT_KINDS, region, regions: DEFAULT_REGIONS });
  const out = r.redact(text).text;
  return { out, stopped: r.leftBehind().length > 0 };
};

/** Whether 8 consecutive letters and digits of `value` go out: the request is not stopped and they are in it. */
export const sends = (text: string, value: string, region = 'IE'): boolean => {
  const { out, stopped } = redacts(text, region);
  if (stopped) return false;
  // Each stretch between placeholders on its own: a placeholder parts the stream, a sign of the text does not (a `|`
  // standing for a placeholder made a card in `||` groups never count as sent: review rev27q).
  const stretches = out.split(/⟦[^⟧]*⟧/).map((stretch) =>
    stretch
      .normalize('NFKC')
      .replace(/\p{Nd}/gu, asciiDigit)
      .replace(/[^0-9A-Za-z]/g, '')
      .toUpperCase(),
  );
  for (let i = 0; i + 8 <= value.length; i++) if (stretches.some((stretch) => stretch.includes(value.slice(i, i + 8)))) return true;
  return false;
};
