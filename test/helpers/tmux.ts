import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN } from './cli.js';
import { toolVersion, TOOLS } from './requirements.js';

/** tmux's version line, or undefined when tmux is not installed (the terminal tests then skip, saying why: see requirements.ts). */
export function tmuxVersion(): string | undefined {
  return toolVersion(TOOLS.tmux);
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A shell command line running the real built CLI with exactly this environment, CI variables removed (a test
 * runner's CI=true would otherwise, rightly, keep the review screen from opening), then printing its exit code.
 */
export function hippoCommand(args: string[], env: Record<string, string | undefined>): string {
  const unset = ['CI', 'CONTINUOUS_INTEGRATION', 'FORCE_COLOR', 'NO_COLOR'].map((name) => `-u ${name}`).join(' ');
  const assignments = Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${quote(value)}`)
    .join(' ');
  return `env ${unset} ${assignments} node ${quote(BIN)} ${args.map(quote).join(' ')}; echo "[exit $?]"`;
}

/** A real pseudo-terminal: a detached tmux session on its own server (socket in `dir`, no user config). */
export class Terminal {
  private readonly socket: string;

  private constructor(dir: string) {
    this.socket = join(dir, 'tmux.sock');
  }

  /** Runs `script` (shell) in a `columns`×`rows` terminal; the pane stays open after it ends so it can be read. */
  static start(dir: string, script: string, size = { columns: 120, rows: 40 }): Terminal {
    const terminal = new Terminal(dir);
    terminal.tmux('new-session', '-d', '-s', 'hippo', '-x', String(size.columns), '-y', String(size.rows), `${script}; sleep 600`);
    return terminal;
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** tmux key names: `Enter`, `Escape`, `Down`, `C-c`, or single characters. */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'hippo', ...keys);
  }

  /** Types text literally. */
  text(text: string): void {
    this.tmux('send-keys', '-t', 'hippo', '-l', text);
  }

  /** What the terminal shows; with `escapes`, including the colour and style sequences of each cell. */
  screen(escapes = false): string {
    return this.tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'hippo');
  }

  /** The pane's title: what an OSC 0/2 sequence reaching the terminal raw would set. */
  title(): string {
    return this.tmux('display-message', '-p', '-t', 'hippo', '#{pane_title}').trim();
  }

  async waitFor(expected: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (typeof expected === 'string' ? screen.includes(expected) : expected.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${String(expected)}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends `signal` to the program the shell in the pane is running (the shell's child), as `kill` from elsewhere would. */
  signal(signal: NodeJS.Signals): void {
    const shell = Number(this.tmux('display-message', '-p', '-t', 'hippo', '#{pane_pid}').trim());
    const child = spawnSync('ps', ['-o', 'pid=', '--ppid', String(shell)], { encoding: 'utf8' })
      .stdout.trim()
      .split(/\s+/)[0];
    if (!child) throw new Error(`no program is running in the pane (shell ${shell})`);
    process.kill(Number(child), signal);
  }

  kill(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server']);
  }
}

const ESC = '\u001B';

/** Colour parameters in the SGR sequences of a capture (foreground/background, basic, bright, 256 and RGB). */
export function colourCodes(capture: string): string[] {
  const codes: string[] = [];
  for (const match of capture.matchAll(new RegExp(`${ESC}\\[([0-9;]*)m`, 'g'))) {
    for (const parameter of match[1]!.split(';')) {
      const code = Number(parameter);
      if ((code >= 30 && code <= 38) || (code >= 40 && code <= 48) || (code >= 90 && code <= 97) || (code >= 100 && code <= 107)) codes.push(parameter);
    }
  }
  return codes;
}
