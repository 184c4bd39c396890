import { describe, expect, it } from 'vitest';
import { texts, values } from './helpers.js';

describe('ip recogniser', () => {
  it('finds IPv4 and IPv6 addresses in prose, with trailing punctuation left out', () => {
    expect(texts('ip', 'IPs: 192.168.1.1, 10.0.0.1, 2001:db8::1. Gateway: fe80::1 on eth0.')).toEqual(['192.168.1.1', '10.0.0.1', '2001:db8::1', 'fe80::1']);
  });

  it('normalises IPv6 to RFC 5952 and keeps IPv4-mapped addresses in mixed notation', () => {
    expect(values('ip', '2345:0425:2CA1:0000:0000:0567:5673:23b5')).toEqual(['2345:425:2ca1::567:5673:23b5']);
    expect(values('ip', '0:0:0:0:0:FFFF:129.144.52.38')).toEqual(['::ffff:129.144.52.38']);
    expect(values('ip', '::ffff:10.0.0.1')).toEqual(['::ffff:10.0.0.1']);
  });

  it('keeps zone indexes and valid CIDR prefixes, and leaves out invalid prefixes', () => {
    expect(texts('ip', 'fe80::1%eth0 192.168.1.0/24 fe80::1%eth0/64 ::/0')).toEqual(['fe80::1%eth0', '192.168.1.0/24', 'fe80::1%eth0/64', '::/0']);
    expect(texts('ip', '10.0.0.0/123 and 2001:db8::/9999')).toEqual(['10.0.0.0', '2001:db8::']);
  });

  it('finds addresses in brackets, URLs and after @', () => {
    expect(texts('ip', 'Connect to [2001:db8::1]:8080, http://[2001:db8::1]/path, user@2001:db8::1')).toEqual(['2001:db8::1', '2001:db8::1', '2001:db8::1']);
  });

  it('rejects version strings and dotted runs that are not exactly four parts', () => {
    expect(texts('ip', 'Version 1.2.3, release 1.2.3.4.5, 192.168.1.1.1, v1.2.3.4, host.10.0.0.1')).toEqual([]);
    expect(texts('ip', 'release 1.2.3.4, host 10.0.0.1')).toEqual(['1.2.3.4', '10.0.0.1']);
  });

  it('rejects octets out of range, leading zeros and numbers inside longer numbers', () => {
    expect(texts('ip', '256.256.256.256 192.168.1.256 1000.2.3.4 192.168.001.001')).toEqual([]);
    expect(texts('ip', 'a1.2.3.4 1.2.3.4a IP192.168.1.1text')).toEqual([]);
    expect(texts('ip', '255.255.255.255 192.168.1.255 a 1.2.3.4 a')).toEqual(['255.255.255.255', '192.168.1.255', '1.2.3.4']);
  });

  it('rejects malformed IPv6 and things with colons that are not addresses', () => {
    expect(texts('ip', '12345:db8::1 2001::db8::1 gggg:hhhh::1234 684D:1111:222:3333:4444:5555:77')).toEqual([]);
    expect(texts('ip', 'MAC aa:bb:cc:dd:ee:ff, time 12:34:56, ratio 1:2:3:4, std::cout, Abc::Def, :::')).toEqual([]);
    expect(texts('ip', 'fe80::1text text2001:db8::1')).toEqual([]);
    expect(texts('ip', 'fe80::1 text 2001:db8::1 684D:1111:222:3333:4444:5555:6:77')).toEqual(['fe80::1', '2001:db8::1', '684D:1111:222:3333:4444:5555:6:77']);
  });

  it('falls back to the IPv4 part when an IPv6 form is glued to a word', () => {
    expect(texts('ip', 'text::ffff:192.0.2.1')).toEqual(['192.0.2.1']);
  });

  it('reads a run of hex letters and colons whole, whatever words of the letters a–f stand around it', () => {
    expect(texts('ip', 'cafe dead:beef::1 and face fade 2001:db8::2; decade: bead.cafe:1::2 ::1:')).toEqual(['dead:beef::1', '2001:db8::2', '::1']);
  });

  it('finds the unspecified address on its own', () => {
    expect(texts('ip', 'src=:: dst=::1')).toEqual(['::', '::1']);
  });

  it('does not match full-width digits', () => {
    expect(texts('ip', '１９２.１６８.１.１')).toEqual([]);
    expect(texts('ip', '192.168.1.1')).toEqual(['192.168.1.1']);
  });

  it('keeps the prefix length in the normalised value', () => {
    expect(values('ip', 'nets 10.0.0.0/8 and 2001:DB8::/32')).toEqual(['10.0.0.0/8', '2001:db8::/32']);
  });

  it('keeps the zone of an IPv4-mapped address', () => {
    expect(values('ip', 'peer ::ffff:192.0.2.1%eth0 up')).toEqual(['::ffff:192.0.2.1%eth0']);
  });

  it('trims sentence punctuation after an IPv6 address', () => {
    expect(texts('ip', 'ping fe80::1: it answers; then ::1..')).toEqual(['fe80::1', '::1']);
  });

  it('does not read C++ scope syntax as an address', () => {
    expect(texts('ip', 'call Abc::Def and face::bead')).toEqual([]);
    expect(texts('ip', 'call fe80::def and face::bead:1')).toEqual(['fe80::def', 'face::bead:1']);
  });

  it('accepts the longest prefix of each family', () => {
    expect(texts('ip', 'host 10.0.0.1/32 and ::1/128')).toEqual(['10.0.0.1/32', '::1/128']);
  });

  it('finds an address after an ellipsis: a dot not glued to a word', () => {
    expect(texts('ip', 'Trace: gateway ...10.0.0.1 next')).toEqual(['10.0.0.1']);
  });
});
