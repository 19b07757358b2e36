/**
 * What the visits need of the orders: orders that waited for a visit are written when it arrives. The orders'
 * AddOrdersService is it (sandbox.module.ts provides this token with it), so the visits, which the orders read,
 * do not import the orders back (the folder rule of test/import-rules.spec.ts).
 */
export abstract class WaitingOrders {
  abstract releaseWaitingOrders(projectId: number, visitIds: string[]): Promise<unknown>;
}
