import { describe, expect, it } from 'vitest';
import { scheduleText, shellQuote } from '../../../src/core/nightly/schedule.js';

describe('schedule text', () => {
  it('runs run-once every 30 minutes with absolute paths, --db and --json, appending to nightly.log beside the database', () => {
    const text = scheduleText({
      node: '/usr/bin/node',
      hippo: '/opt/hippo/bin/run.js',
      db: '/home/ana/.local/share/hippo/hippo.db',
      dataDir: '/elsewhere',
      env: {},
    });
    expect(text.cron).toBe(
      '*/30 * * * * /usr/bin/node /opt/hippo/bin/run.js rem nightly run-once --db /home/ana/.local/share/hippo/hippo.db --json >> /home/ana/.local/share/hippo/nightly.log 2>&1',
    );
    expect(text.systemd.service).toContain(
      'ExecStart=/usr/bin/node /opt/hippo/bin/run.js rem nightly run-once --db /home/ana/.local/share/hippo/hippo.db --json',
    );
    expect(text.systemd.service).toContain('Type=oneshot');
    expect(text.systemd.timer).toContain('OnCalendar=*:0/30');
    expect(text.systemd.timer).toContain('Persistent=true');
    expect(text.backup).toBeUndefined();
  });

  it('for a PostgreSQL store: the URL without its password, the log in the data dir, and a pg_dump crontab line', () => {
    const text = scheduleText({
      node: '/usr/bin/node',
      hippo: '/opt/hippo/bin/run.js',
      db: 'postgres://ana:s3cr%25et@db.example.com:5433/hippo?sslmode=require&password=x',
      dataDir: '/home/ana/.local/share/hippo',
      env: {},
    });
    expect(text.cron).toBe(
      "*/30 * * * * /usr/bin/node /opt/hippo/bin/run.js rem nightly run-once --db 'postgres://ana@db.example.com:5433/hippo?sslmode=require' --json >> /home/ana/.local/share/hippo/nightly.log 2>&1",
    );
    expect(text.backup?.cron).toBe(
      "15 3 * * * mkdir -p /home/ana/.local/share/hippo/backups && pg_dump --format=custom --file=/home/ana/.local/share/hippo/backups/hippo-$(date +\\%a).dump 'postgres://ana@db.example.com:5433/hippo?sslmode=require'",
    );
    expect(JSON.stringify(text)).not.toMatch(/s3cr|password/);
  });

  it("quotes paths with spaces for sh and systemd, and escapes cron's %", () => {
    const text = scheduleText({
      node: '/usr/bin/node',
      hippo: "/Users/ana o'neil/hippo/bin/run.js",
      db: '/data/100%/hippo.db',
      dataDir: '/elsewhere',
      env: {},
    });
    expect(text.cron).toContain(`'/Users/ana o'\\''neil/hippo/bin/run.js'`);
    expect(text.cron).toContain('--db /data/100\\%/hippo.db');
    expect(text.cron).not.toMatch(/[^\\]%/);
    expect(text.systemd.service).toContain(`"/Users/ana o'neil/hippo/bin/run.js"`);
    expect(text.systemd.service).toContain('/data/100%%/hippo.db');
    expect(shellQuote('plain/path.db')).toBe('plain/path.db');
  });

  it('carries the environment that located the config, the data and the model, never a key, quoted for sh and systemd', () => {
    const env = {
      XDG_CONFIG_HOME: '/home/ana/my config',
      XDG_DATA_HOME: 'relative/ignored',
      HIPPO_MODEL: 'ollama:llama3.2',
      HIPPO_BASE_URL: 'http://127.0.0.1:11434',
      HIPPO_MODEL_TIMEOUT_MS: '',
      PGPASSFILE: '/home/ana/.pgpass-100%',
      HIPPO_API_KEY: 'sk-secret',
      OPENAI_API_KEY: 'sk-secret',
      HIPPO_DB: '/elsewhere.db',
    };
    const text = scheduleText({ node: '/usr/bin/node', hippo: '/opt/hippo/bin/run.js', db: '/data/hippo.db', dataDir: '/elsewhere', env });
    expect(text.environment).toEqual({
      XDG_CONFIG_HOME: '/home/ana/my config',
      PGPASSFILE: '/home/ana/.pgpass-100%',
      HIPPO_MODEL: 'ollama:llama3.2',
      HIPPO_BASE_URL: 'http://127.0.0.1:11434',
    });
    expect(text.command).toBe(
      "XDG_CONFIG_HOME='/home/ana/my config' PGPASSFILE=/home/ana/.pgpass-100% HIPPO_MODEL=ollama:llama3.2 HIPPO_BASE_URL=http://127.0.0.1:11434 /usr/bin/node /opt/hippo/bin/run.js rem nightly run-once --db /data/hippo.db --json",
    );
    expect(text.cron).toBe(`*/30 * * * * ${text.command.replaceAll('%', '\\%')} >> /data/nightly.log 2>&1`);
    expect(text.systemd.service).toContain(
      [
        'Type=oneshot',
        'Environment="XDG_CONFIG_HOME=/home/ana/my config"',
        'Environment="PGPASSFILE=/home/ana/.pgpass-100%%"',
        'Environment=HIPPO_MODEL=ollama:llama3.2',
        'Environment=HIPPO_BASE_URL=http://127.0.0.1:11434',
        'ExecStart=',
      ].join('\n'),
    );
    // systemd reads user units from $XDG_CONFIG_HOME/systemd/user.
    expect(text.systemd.servicePath).toBe('/home/ana/my config/systemd/user/hippo-nightly.service');
    expect(text.systemd.timerPath).toBe('/home/ana/my config/systemd/user/hippo-nightly.timer');
    expect(JSON.stringify(text)).not.toContain('sk-secret');
    expect(JSON.stringify(text)).not.toContain('/elsewhere.db');
  });

  it('carries nothing from an environment that sets none of it, and keeps the unit in ~/.config', () => {
    const text = scheduleText({
      node: '/usr/bin/node',
      hippo: '/opt/hippo/bin/run.js',
      db: '/data/hippo.db',
      dataDir: '/elsewhere',
      env: { HOME: '/home/ana' },
    });
    expect(text.environment).toEqual({});
    expect(text.command).toBe('/usr/bin/node /opt/hippo/bin/run.js rem nightly run-once --db /data/hippo.db --json');
    expect(text.systemd.service).not.toContain('Environment=');
    expect(text.systemd.servicePath).toBe('~/.config/systemd/user/hippo-nightly.service');
  });
});
