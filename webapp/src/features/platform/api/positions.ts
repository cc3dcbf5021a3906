// Read-your-writes for the platform screens: commands answer the log position they
// reached; lists fetched afterwards send `minPosition` so the read model waits for it.
import { notePosition, minPositionParam } from '@/features/declarations/api/readYourWrites';
import type { CommandAnswer } from './types';

export { minPositionParam };

export function noteAnswer(answer: CommandAnswer | null | undefined): void {
  notePosition(answer?.position);
}
