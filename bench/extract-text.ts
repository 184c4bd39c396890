// Generates a large plain-text file of work notes for the `extract` benchmark: deterministic (seeded), with facts
// of every validated kind at a realistic density (about one fact or look-alike per 250 bytes), most of them valid
// (checksums computed here) and the rest look-alikes a recogniser must reject: times, amounts, versions, ticket
// numbers, millisecond timestamps, IBANs and cards with a wrong check digit.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { pickWith, prng } from './generate.js';

const people = ['Ana Byrne', 'Ben Okafor', 'Chidi Eze', 'Dara Walsh', 'Eva Novak', 'Farid Haddad', 'Grace Lee', 'Hiro Sato', 'Ines Costa', 'Niamh Brennan'];
const systems = ['billing service', 'api gateway', 'payments table', 'invoice renderer', 'auth proxy', 'nightly backup', 'billing cron', 'webhook queue'];
const events = ['failed after the deploy', 'went out cleanly', 'spiked in latency', 'held a lock for minutes', 'fired an alert', 'filled the disk'];
const domains = ['example.ie', 'larkspur.io', 'dunmore-logistics.co.uk', 'harbourfinch.ie', 'nordlicht.de', 'quillon.com'];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Appends the ISO 7064 mod-97 check digits to a Irish-format BBAN. */
function iban(random: () => number): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  const bban = `AIBK${digits(14)}`;
  const numeric = `${bban}IE00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  const check = String(98 - remainder).padStart(2, '0');
  return `IE${check}${bban}`.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A Visa number (prefix 4, 16 digits) with a valid Luhn digit, grouped in fours. */
function card(random: () => number): string {
  const body = [4, ...Array.from({ length: 14 }, () => Math.floor(random() * 10))];
  let sum = 0;
  body.forEach((digit, index) => {
    const doubled = (body.length - index) % 2 === 1 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  });
  return [...body, (10 - (sum % 10)) % 10].join('').replace(/(\d{4})(?=\d)/g, '$1 ');
}

function fact(random: () => number): string {
  const pick = pickWith(random);
  const n = (max: number) => Math.floor(random() * max);
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  const name = pick(people);
  const user = name.toLowerCase().replace(' ', '.');
  switch (n(14)) {
    case 0:
      return `Contact: ${name}, ${user}@${pick(domains)}.`;
    case 1:
      return `Mobile: +353 8${5 + n(3)} ${100 + n(900)} ${1000 + n(9000)}.`;
    case 2:
      return `Office line +44 20 7946 0${pad(n(1000), 3)}, ask for ${name}.`;
    case 3:
      return `Refunds to IBAN ${iban(random)} by Friday.`;
    case 4:
      return `Staging test card ${card(random)} for the checkout flow.`;
    case 5:
      return `Dashboard: https://grafana.${pick(domains)}/d/${n(100000)}/billing?orgId=1.`;
    case 6:
      return `Host 10.${n(256)}.${n(256)}.${n(256)} is the bastion; v6 range 2001:db8:${n(65536).toString(16)}::/48.`;
    case 7:
      return `Renewal on ${2025 + n(3)}-${pad(1 + n(12), 2)}-${pad(1 + n(28), 2)}, audit ${1 + n(28)} ${pick(months)} ${2025 + n(3)}.`;
    case 8:
      return `The job ran at ${pad(n(24), 2)}:${pad(n(60), 2)} and cost €${1 + n(9)},${pad(n(1000), 3)}.${pad(n(100), 2)}.`;
    case 9:
      return `Upgraded to v${n(10)}.${n(20)}.${n(50)} (build ${1700000000000 + n(1e9)}), ticket #${10000 + n(90000)}.`;
    case 10:
      return `Old account ${iban(random).replace(/^IE\d\d/, 'IE00')} was closed.`;
    case 11:
      return `Declined card ${card(random).replace(/\d$/, (d) => String((Number(d) + 1) % 10))} twice.`;
    case 12:
      return `Order ${n(1e6)} shipped ${n(30)} days late to ${pick(domains)}.`;
    default:
      return `Call ${name} on +1 202 555 01${pad(n(100), 2)} after 17:00.`;
  }
}

function paragraph(random: () => number): string {
  const pick = pickWith(random);
  const sentences: string[] = [];
  const count = 2 + Math.floor(random() * 4);
  for (let index = 0; index < count; index++) {
    sentences.push(random() < 0.55 ? fact(random) : `${pick(people)} noted that the ${pick(systems)} ${pick(events)}.`);
  }
  return `${sentences.join(' ')}\n`;
}

/** Writes about `bytes` bytes of notes to `path` (whole paragraphs; the same seed gives the same file). */
export async function writeExtractText(path: string, bytes: number, seed = 7): Promise<void> {
  const random = prng(seed);
  const out = createWriteStream(path);
  let written = 0;
  while (written < bytes) {
    const chunk = Array.from({ length: 200 }, () => paragraph(random)).join('');
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
