// Query keys of the customs screens. A declaration's timeline and what customs holds sit
// under ['declarations'], so every declaration command (a move by hand, a re-send) refreshes
// them; the channel page's under ['customs'].
export const customsKeys = {
  all: ['customs'] as const,
  timeline: (id: string) => ['declarations', 'customs', id] as const,
  holds: (silentHours: number) => ['declarations', 'customs-holds', silentHours] as const,
};
