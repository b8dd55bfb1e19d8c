// Two `baton gateway` processes on one Telegram bot token (and a `baton worker`): one holds the channel lease and
// polls; SIGKILLed in the middle of a 50-message burst, the other takes the channel over within 15 s and every
// message gets exactly one reply, in order (the suite: telegram-takeover.ts).
import { telegramTakeoverSuite } from './telegram-takeover.ts';

telegramTakeoverSuite('two gateways on one Telegram bot', 'tg-failover');
