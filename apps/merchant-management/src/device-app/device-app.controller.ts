import { ApiEnvelope, ApiEnvelopeErrors, CurrentDevice, DeviceApi, DeviceClaims, Envelope, EnvelopeDto, IsPlainObject, ok } from '@app/common';
import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { DeviceEmvDto } from '../device/dto/device.dto';
import { ActivationResult, DeviceAppService, DeviceConfig } from './device-app.service';

export class ActivateDto {
  @ApiProperty({ example: '123456789012' })
  @IsString()
  activationCode: string;

  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: true, description: 'what the phone reports about itself (model, os, appVersion, …)' })
  @IsOptional()
  @IsPlainObject()
  deviceInfo?: Record<string, unknown> | null;
}

/** What `/config` gives the phone: its EMV parameters and AIDs, its gateway profile and a renewed token. */
export class DeviceConfigDto extends DeviceEmvDto implements DeviceConfig {
  @ApiProperty({ example: 'D7Kq2xN4pR8sT1vW' }) deviceId: string;
  @ApiProperty({ type: String, nullable: true, description: 'the gateway profile the device pays under; null while the merchant has no acquirer binding' })
  profileId: string | null;
  @ApiProperty({ description: 'the device token for the payment gateway (renewed on every call)' }) deviceToken: string;
  @ApiProperty({
    example: 'Asia/Kuala_Lumpur',
    description: "the merchant's time zone (IANA): the terminal's local date and time (EMV 9A, 9F21) are read in it, as the host's fields 12/13 are",
  })
  timeZone: string;
}

/** What activation gives the phone: {@link DeviceConfigDto} and the gateway namespace to pay in. */
export class ActivationResultDto extends DeviceConfigDto implements ActivationResult {
  @ApiProperty({ example: 'demo', description: "the payment gateway's customer namespace" }) namespace: string;
}

/** The phone app's API: no PBO token; activation with a code, then a device token. */
@ApiTags('device app')
@Controller('api/sdk/v1')
export class DeviceAppController {
  constructor(private readonly deviceApp: DeviceAppService) {}

  @Post('activate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Activate a phone with its activation code', description: 'No bearer token: the activation code is the credential.', security: [] })
  @ApiResponse({ status: 409, description: "code 10000: the code was used, has expired or its device was decommissioned, or the gateway refused the device's profile (its profileSync is REJECTED: fix and replay it first)", type: EnvelopeDto })
  @ApiResponse({ status: 429, description: 'code 16000: too many failed attempts from this client', type: EnvelopeDto })
  @ApiResponse({ status: 409, description: 'code 10000: the activation code was already used', type: EnvelopeDto })
  @ApiResponse({ status: 404, description: 'code 14000: no such activation code (or not one that can be activated)', type: EnvelopeDto })
  @ApiEnvelopeErrors(400)
  @ApiEnvelope(ActivationResultDto)
  async activate(@Body() body: ActivateDto, @Req() request: FastifyRequest): Promise<Envelope<ActivationResult>> {
    return ok(await this.deviceApp.activate(body.activationCode, body.deviceInfo, request.ip));
  }

  @Get('config')
  @DeviceApi()
  @ApiOperation({ summary: "The device's current EMV parameters, AIDs and profile; clears deviceUpdate and renews the token" })
  @ApiEnvelope(DeviceConfigDto)
  async config(@CurrentDevice() device: DeviceClaims): Promise<Envelope<DeviceConfig>> {
    return ok(await this.deviceApp.config(device));
  }
}
