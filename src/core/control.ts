/**
 * C0 and C1 control characters other than tab and newline. ESC, BEL, CSI and friends start terminal escape
 * sequences (clear the screen, retitle the window, rewrite what a reviewer sees), so text from a model or a memory
 * must never carry them to a terminal.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export function hasControlCharacters(text: string): boolean {
  CONTROL_CHARACTERS.lastIndex = 0;
  return CONTROL_CHARACTERS.test(text);
}
