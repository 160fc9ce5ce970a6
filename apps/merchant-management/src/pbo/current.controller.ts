import { ApiEnvelope, ApiEnvelopeErrors, EmptyBodyPipe, Envelope, formatTimestamp, GroupId, ok, PboApi } from '@app/common';
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Pbo } from './pbo';
import { PboService } from './pbo.service';

/** PboInfo (docs/decisions.md, "Legacy API shapes", owner info). */
export class PboInfoDto {
  @ApiProperty() groupId: string;
  @ApiProperty() groupName: string;
  @ApiProperty({ description: 'JSON-encoded array of message format names' }) messageFormat: string;
  @ApiProperty({ type: String, description: 'JSON-encoded object', nullable: true }) emailSender: string | null;
  @ApiProperty({ example: '2026-01-01T00:00:00+0000' }) updatedAt: string;
  @ApiProperty({ description: 'IANA time zone new merchants default to' }) timeZone: string;
}

export function toPboInfo(pbo: Pbo): PboInfoDto {
  return {
    groupId: pbo.groupId,
    groupName: pbo.groupName,
    messageFormat: JSON.stringify([pbo.gatewayFormat]),
    emailSender: pbo.emailSender ? JSON.stringify(pbo.emailSender) : null,
    updatedAt: formatTimestamp(pbo.updatedAt),
    timeZone: pbo.timeZone,
  };
}

/** `GET`/`POST /api/v2/current`: the PBO of the token (shared by v1 and legacy clients). */
@ApiTags('owner')
@PboApi()
@Controller('api/v2/current')
export class CurrentController {
  constructor(private readonly pbos: PboService) {}

  @Get()
  @ApiOperation({ summary: 'The PBO (group) of the bearer token' })
  @ApiEnvelope(PboInfoDto)
  async get(@GroupId() groupId: string): Promise<Envelope<PboInfoDto>> {
    return ok(toPboInfo(await this.pbos.require(groupId)));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Same as GET (used by the quickstart)', description: 'Takes no body: none, or `{}`; any field is refused (400, code 10000).' })
  @ApiEnvelope(PboInfoDto)
  @ApiEnvelopeErrors(400)
  async post(@GroupId() groupId: string, @Body(EmptyBodyPipe) _body: undefined): Promise<Envelope<PboInfoDto>> {
    return this.get(groupId);
  }
}
