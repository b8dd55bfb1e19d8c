// The Telegram gateway takeover drill on a local 3-master Redis Cluster (issue 19): the lease holder SIGKILLed
// mid-burst, the standby takes the channel over; every message answered once, in order (telegram-takeover.ts).
import { startRedisCluster } from '../../helpers/redis-cluster.ts';
import { telegramTakeoverSuite } from '../channels/telegram-takeover.ts';

telegramTakeoverSuite('two gateways on one Telegram bot, on a Redis Cluster', 'cluster-tg', async () => {
  const cluster = await startRedisCluster();
  return { target: cluster.target, partitions: 16, close: () => cluster.close() };
});
