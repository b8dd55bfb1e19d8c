import { Redis } from 'ioredis';
let errs = 0;
process.on('uncaughtException', (e) => { errs++; if (errs === 1) console.log('uncaught:', e.message.slice(0, 60)); });
const r = new Redis();
const flood = new Redis();
let go = true;
(async () => { while (go) await Promise.all(Array.from({ length: 200 }, (_, i) => flood.eval("return redis.call('EXISTS', KEYS[1])", 1, `k${i}`))); })();
for (let i = 0; i < 20; i++) {
  const mon = await r.monitor();
  let n = 0; mon.on('monitor', () => n++);
  await new Promise((res) => setTimeout(res, 50));
  mon.disconnect();
}
await new Promise((res) => setTimeout(res, 300));
go = false;
console.log('uncaught errors', errs);
process.exit(0);
