export { scheduledSlot } from '../../config/cron-expression';
