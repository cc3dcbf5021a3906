// Wire shapes of the customs channel's screens, named from the server's OpenAPI document.
import type { Wire } from '@/shared/api/wire';

export type CustomsTimeline = Wire<'CustomsTimeline'>;
export type CustomsEntry = Wire<'CustomsEntry'>;
export type CustomsHolds = Wire<'CustomsHolds'>;
export type CustomsHold = Wire<'CustomsHold'>;
export type HoldCount = Wire<'HoldCount'>;
