/** Every replica of merchant-management answers its requests in one queue group: one replica gets each. */
export const MERCHANT_MANAGEMENT_QUEUE_GROUP = 'merchant-management';
