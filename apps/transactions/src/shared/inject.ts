/** transactions' connection name (its DataSource on schema `transactions`). */
export const TRANSACTIONS_CONNECTION = 'transactions';
export const TRANSACTIONS_SCHEMA = 'transactions';
