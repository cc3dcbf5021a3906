// Query keys of the channel page, all under ['customs'] (the shared customs keys' root).
import { customsKeys } from '@/shared/customs/api/keys';

export const channelKeys = {
  all: customsKeys.all,
  summary: ['customs', 'summary'] as const,
  anomalies: (state: string) => ['customs', 'anomalies', state] as const,
};
