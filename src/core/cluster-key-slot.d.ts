// ioredis's own slot function ships without types.
declare module 'cluster-key-slot' {
  export default function calculateSlot(key: string | Buffer): number;
}
