// `outcome-tracker/client` is the package @outcome-tracker/client (packages/client, compiled from
// src/client), re-exported: an app that only talks to a server installs that package alone, with
// no native code and no server dependencies, and an app that has both gets one copy of the client
// (one ApiError class) whichever name it imports.
export * from '@outcome-tracker/client';
