import { ApiProperty } from '@nestjs/swagger';

/** Why an acceptance's sign-on ended as it did (`resultReason`); `docs/decisions.md`, Gateway sign-on. */
export const SIGN_ON_RESULT_REASONS = [
  'HostSuccess',
  'HostDeclined',
  'HostTimeout',
  'HostUnavailable',
  'HostConnectorUnavailable',
  'InvalidAcceptance',
] as const;
export type SignOnResultReason = (typeof SIGN_ON_RESULT_REASONS)[number];

export class AcceptanceSignOnDto {
  @ApiProperty({ example: 'acpt_3hV0cQ9mX2rT8wK1yB6nZg' }) acptId: string;
  @ApiProperty() acptName: string;
  @ApiProperty({ example: 'ISO8583' }) hostMessageFormat: string;
  @ApiProperty({ type: [String], example: ['VISA', 'MASTERCARD'], description: "the acceptance's supportedPayments" }) supportedPayment: string[];
  @ApiProperty({ enum: SIGN_ON_RESULT_REASONS }) resultReason: SignOnResultReason;
  @ApiProperty({ example: '00', description: "the host's response code; empty when the host did not answer" }) hostRespCode: string;
  @ApiProperty({ example: 'Approved' }) hostRespMessage: string;
}

/** ProfileSignOn: one entry per bound acceptance, in routing order. */
export class ProfileSignOnDto {
  @ApiProperty({ example: 'prof_Xq3vJ0a9T1mB7cR2sD5eWg' }) profileId: string;
  @ApiProperty() profileName: string;
  @ApiProperty({ type: [AcceptanceSignOnDto] }) acptSignOns: AcceptanceSignOnDto[];
}
