import { CurrentDevice, DeviceApi, DeviceClaims, Envelope, EnvelopeDto, IsPlainObject, ok } from '@app/common';
import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import type { FastifyRequest } from 'fastify';
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

/** The phone app's API: no PBO token; activation with a code, then a device token. */
@ApiTags('device app')
@Controller('api/sdk/v1')
export class DeviceAppController {
  constructor(private readonly deviceApp: DeviceAppService) {}

  @Post('activate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Activate a phone with its activation code' })
  @ApiResponse({ status: 429, description: 'code 16000: too many failed attempts from this client', type: EnvelopeDto })
  async activate(@Body() body: ActivateDto, @Req() request: FastifyRequest): Promise<Envelope<ActivationResult>> {
    return ok(await this.deviceApp.activate(body.activationCode, body.deviceInfo, request.ip));
  }

  @Get('config')
  @DeviceApi()
  @ApiOperation({ summary: "The device's current EMV parameters, AIDs and profile; clears deviceUpdate and renews the token" })
  async config(@CurrentDevice() device: DeviceClaims): Promise<Envelope<DeviceConfig>> {
    return ok(await this.deviceApp.config(device));
  }
}
