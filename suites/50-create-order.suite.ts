import { createOrderChecks } from './checks/orders.js';
import { registerChecks } from './vitest-adapter.js';

registerChecks('Create Order', createOrderChecks);
