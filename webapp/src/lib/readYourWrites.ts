// Read-your-writes: every command answers the event-store position it reached; queries
// sent afterwards carry `minPosition` so the read model waits (up to 2 s) until it has
// applied that event, and a page never shows the state from before the user's own action.
import type { CommandAnswer } from './apiTypes';

let highest = 0;

export function notePosition(position: number | null | undefined): void {
  if (typeof position === 'number' && position > highest) highest = position;
}

/** Notes the position of a command's answer (nothing when there is none). */
export function noteAnswer(answer: CommandAnswer | null | undefined): void {
  notePosition(answer?.position);
}

/** `{minPosition}` once a command has run in this page load, else nothing. */
export function minPositionParam(): { minPosition?: number } {
  return highest > 0 ? { minPosition: highest } : {};
}

/** Tests only. */
export function resetPositions(): void {
  highest = 0;
}
