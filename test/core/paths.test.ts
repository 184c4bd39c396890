import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDbSetting } from '../../src/core/config.js';
import { resolveDb } from '../../src/core/db-location.js';
import { isPostgresLocation, maskPasswordsIn, passwordsIn, resolveDbPath, withoutPassword } from '../../src/core/paths.js';

describe('choosing the store', () => {
  it('--db beats HIPPO_DB beats the config file beats the default; a postgres URL comes back as given', () => {
    const env = { HOME: '/home/ana', XDG_DATA_HOME: '/data' };
    expect(resolveDbPath('/a.db', { ...env, HIPPO_DB: '/b.db' }, '/c.db')).toBe('/a.db');
    expect(resolveDbPath(undefined, { ...env, HIPPO_DB: '/b.db' }, '/c.db')).toBe('/b.db');
    expect(resolveDbPath(undefined, env, 'postgres://ana@db/hippo')).toBe('postgres://ana@db/hippo');
    expect(resolveDbPath(undefined, env)).toBe('/data/hippo/hippo.db');
    expect(resolveDbPath(' POSTGRESQL://db/x ', env)).toBe('POSTGRESQL://db/x');
    expect(isPostgresLocation('postgres:/not-a-url')).toBe(false);
    expect(() => resolveDbPath('sqlite://x.db', env)).toThrow(/sqlite:\/\/ URL/);
  });

  it('resolveDb says where the store came from, and reads the config file only when neither --db nor HIPPO_DB names one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hippo-db-location-'));
    try {
      const env = { HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'good') };
      mkdirSync(join(dir, 'good', 'hippo'), { recursive: true });
      writeFileSync(join(dir, 'good', 'hippo', 'config.json'), JSON.stringify({ db: '/c.db' }));
      expect(resolveDb('/a.db', { env: { ...env, HIPPO_DB: '/b.db' } })).toEqual({ location: '/a.db', source: 'flag' });
      expect(resolveDb(undefined, { env: { ...env, HIPPO_DB: '/b.db' } })).toEqual({ location: '/b.db', source: 'HIPPO_DB' });
      expect(resolveDb(undefined, { env })).toEqual({ location: '/c.db', source: 'config' });
      expect(resolveDb(undefined, { env, unnamed: () => '/demo.db' })).toEqual({ location: '/demo.db', source: 'default' });
      // A broken config file is not read when --db or HIPPO_DB names the store, and is an error when it would be.
      const broken = { ...env, XDG_CONFIG_HOME: join(dir, 'broken') };
      mkdirSync(join(dir, 'broken', 'hippo'), { recursive: true });
      writeFileSync(join(dir, 'broken', 'hippo', 'config.json'), '{');
      expect(resolveDb('/a.db', { env: broken }).source).toBe('flag');
      expect(resolveDb(undefined, { env: { ...broken, HIPPO_DB: '/b.db' } }).source).toBe('HIPPO_DB');
      expect(() => resolveDb(undefined, { env: broken })).toThrow(/not valid JSON/);
      const none = { ...env, XDG_CONFIG_HOME: join(dir, 'none') };
      expect(resolveDb(undefined, { env: none })).toEqual({ location: join(dir, 'data', 'hippo', 'hippo.db'), source: 'default' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('masks a libpq keyword password outside a URL too, as typed into --db or HIPPO_DB (issue 27 review)', () => {
    expect(maskPasswordsIn('no hippo store at /w/host=db password=s3cretPW dbname=x')).toBe('no hippo store at /w/host=db password=*** dbname=x');
    expect(maskPasswordsIn("host=db password='s3cret PW' user=u")).toBe('host=db password=*** user=u');
    expect(maskPasswordsIn('postgres://u:s3cretPW@h/x?password=s3cretPW&sslmode=require')).toBe('postgres://u:***@h/x?password=***&sslmode=require');
    // libpq's sslpassword (the client key's passphrase) is a secret too (issue 27 review)
    expect(maskPasswordsIn('postgres://u@h/x?sslpassword=s3cretPW&sslmode=require')).toBe('postgres://u@h/x?sslpassword=***&sslmode=require');
    expect(maskPasswordsIn('host=db sslpassword=s3cretPW')).toBe('host=db sslpassword=***');
    expect(withoutPassword('postgres://ana@db/hippo?sslpassword=x&sslmode=require')).toBe('postgres://ana@db/hippo?sslmode=require');
    expect(maskPasswordsIn('a password is needed')).toBe('a password is needed');
  });

  it('masks a password holding an unencoded / ? or # whole, and leaves a port and a path alone (issue 27 review)', () => {
    expect(maskPasswordsIn('did you mean: hippo memory list --db postgres://hippo:S3cret/PW@127.0.0.1:1/x')).toBe(
      'did you mean: hippo memory list --db postgres://hippo:***@127.0.0.1:1/x',
    );
    expect(maskPasswordsIn('postgres://u:a/b?c#d@h:5432/x')).toBe('postgres://u:***@h:5432/x');
    expect(passwordsIn(['--db=postgres://u:pw/with/slashes@h/x'])).toContain('pw/with/slashes');
    expect(maskPasswordsIn('https://example.com:8080/@user')).toBe('https://example.com:8080/@user');
    expect(maskPasswordsIn('https://example.com/a:b@c')).toBe('https://example.com/a:b@c');
  });

  it('prints a URL without its password (user-info and parameter), keeping everything else', () => {
    expect(withoutPassword('postgres://ana:s3cr%40t@db.example.com:5433/hippo?sslmode=require')).toBe(
      'postgres://ana@db.example.com:5433/hippo?sslmode=require',
    );
    expect(withoutPassword('postgresql://ana@db/hippo?password=x&application_name=a')).toBe('postgresql://ana@db/hippo?application_name=a');
    expect(withoutPassword('postgres://db/hippo?password=x')).toBe('postgres://db/hippo');
    expect(withoutPassword('postgres://:pw@/hippo')).toBe('postgres://@/hippo');
    expect(withoutPassword('/not/a/url.db')).toBe('/not/a/url.db');
  });

  it('the config file holds an absolute path or a URL without a password, never a password', () => {
    expect(checkDbSetting('postgres://ana@db/hippo')).toBe('postgres://ana@db/hippo');
    expect(checkDbSetting('/srv/hippo.db')).toBe('/srv/hippo.db');
    expect(() => checkDbSetting('postgres://ana:pw@db/hippo')).toThrow(/passwords are never kept in the config file/);
    expect(() => checkDbSetting('postgres://ana:pw@db/hippo')).not.toThrow(/pw@/);
    expect(() => checkDbSetting('relative.db')).toThrow(/absolute/);
  });
});
