import { defineFamily } from '../family.js';
import { notificationRoutes } from './routes.js';
import {
  markReadSchema,
  notificationPageSchema,
  notificationSchema,
  readMarkerSchema,
  watcherPageSchema,
  watcherSchema,
} from './schema.js';

/** Who watches which issue or outcome, and each user's feed of what others changed there. */
export const notificationsFamily = defineFamily({
  name: 'notifications',
  routes: notificationRoutes,
  about:
    'Watch issues and outcomes, and read what others changed on them: comments, transitions, assignments and due dates passing, as a list or a live stream, with a read marker per user.',
  schemas: {
    responses: {
      Watcher: watcherSchema,
      WatcherPage: watcherPageSchema,
      Notification: notificationSchema,
      NotificationPage: notificationPageSchema,
      ReadMarker: readMarkerSchema,
    },
    requests: { MarkNotificationsRead: markReadSchema },
  },
});
