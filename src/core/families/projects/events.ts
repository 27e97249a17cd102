/** The signal and webhook event types of the projects family (CONTRACT §6). */
export const projectEvents = {
  created: 'project.created',
  updated: 'project.updated',
} as const;
