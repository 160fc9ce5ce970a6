import { DynamicModule, Global, Module } from '@nestjs/common';
import { FieldCipher } from './field-cipher';

/** Injection token of the application's {@link FieldCipher}. */
export const FIELD_CIPHER = Symbol('FIELD_CIPHER');

/** Gives every context the application's field cipher (key from DATA_ENCRYPTION_KEY). */
@Global()
@Module({})
export class CryptoModule {
  static forRoot(cipher: FieldCipher): DynamicModule {
    return { module: CryptoModule, providers: [{ provide: FIELD_CIPHER, useValue: cipher }], exports: [FIELD_CIPHER] };
  }
}
