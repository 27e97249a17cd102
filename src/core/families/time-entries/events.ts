/** The signal and webhook event types of the time entries family (CONTRACT §6). */
export const timeEntryEvents = {
  created: 'time_entry.created',
  updated: 'time_entry.updated',
  deleted: 'time_entry.deleted',
} as const;
