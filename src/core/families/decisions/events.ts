/** The signal and webhook event types of the decisions family (CONTRACT §6). */
export const decisionEvents = {
  created: 'decision.created',
  updated: 'decision.updated',
} as const;
