/** The markdown of docs/client.md, read from the client's declarations. */
export function clientReference(): string;
