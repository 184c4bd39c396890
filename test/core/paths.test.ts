import { describe, expect, it } from 'vitest';
import { checkDbSetting } from '../../src/core/config.js';
import { isPostgresLocation, resolveDbPath, withoutPassword } from '../../src/core/paths.js';

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
