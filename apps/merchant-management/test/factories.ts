// The API driver lives in libs/testing, where the cross-context tests in test/ reach it too.
export * from '@app/testing/merchant-management-api';
