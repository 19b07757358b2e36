import { execFileSync, spawnSync } from 'node:child_process';
import { nodeEntry, ROOT } from '../support/node-entry';

export const TMUX = spawnSync('tmux', ['-V']).status === 0;

/**
 * A command on a real terminal: our own tmux server (nothing of the user's sessions is touched, and it is ended by
 * its socket name), one session running `command`, read from its screen and typed into as a user would.
 */
export class TmuxTerminal {
  private readonly socket: string;

  constructor(name: string) {
    this.socket = `tracker-sync-${name}-${process.pid}`;
  }

  start(command: string): void {
    this.tmux('new-session', '-d', '-s', 'init', '-x', '200', '-y', '60', command);
  }

  /** `init --config <config>` without AMO_TOKEN in its environment; the terminal shows its exit code after. */
  startInit(config: string): void {
    this.start([
      'cd', JSON.stringify(ROOT), '&&', 'env', '-u', 'AMO_TOKEN', 'LOG_LEVEL=warn',
      ...[process.execPath, ...nodeEntry('cli'), 'init', '--config', config].map((part) => JSON.stringify(part)),
      '; echo "init exited $?"; sleep 120',
    ].join(' '));
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'init');
  }

  async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const shown = this.screen();
      if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
      if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${String(text)}; the terminal shows:\n${shown}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Types keys into the terminal, as a user would. */
  keys(...input: string[]): void {
    this.tmux('send-keys', '-t', 'init', ...input);
  }

  close(): void {
    if (TMUX) spawnSync('tmux', ['-L', this.socket, 'kill-server']);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }
}
