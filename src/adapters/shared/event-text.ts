import type { SignalEvent } from '../../core/model.js';
import type { EventText } from '../../core/port/index.js';

/**
 * An event to append, as JSON: what JSON.stringify makes of it, with the text of its `data` taken
 * as the caller made it (a create's resource is serialized once) instead of serialized again.
 * `data` then ends the text, where the core puts it anyway.
 */
export function eventText(event: Omit<SignalEvent, 'sequence'>, text: EventText | undefined): string {
  if (text === undefined) return JSON.stringify(event);
  const { data: _given, ...envelope } = event;
  return `${JSON.stringify(envelope).slice(0, -1)},"data":${text.data}}`;
}
