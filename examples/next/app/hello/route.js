// The app's own route beside the tracker.
export const GET = () => new Response('the app itself');
