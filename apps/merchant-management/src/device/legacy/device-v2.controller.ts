import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { GATEWAY_NAMESPACE } from '../../shared/gateway-namespace';
import { checkBodyGroup, LEGACY_PAGE_SIZE } from '../../shared/legacy';
import { DeviceService } from '../device.service';
import { codeIdOf } from '../device.view';
import { DeviceDeleteQueryDto } from '../dto/device.dto';
import {
  LegacyCreatedCodeDto,
  LegacyDeviceCreateDto,
  LegacyDeviceDto,
  LegacyDeviceListQueryDto,
  LegacyDeviceUpdateDto,
  toDeviceCreate,
  toDeviceUpdate,
  toLegacyDevice,
} from './dto/device-v2.dto';

/** Legacy devices and activation codes (docs/decisions.md, "Legacy /api/v2"), over the same service as `/api/openapi/v1/device`. */
@ApiTags('devices (legacy v2)')
@PboApi()
@ApiEnvelopeErrors(404, 409)
@ApiResponse({ status: 400, description: 'code 10000: invalid input, msg names the field', type: EnvelopeDto })
@ApiResponse({ status: 403, description: "code 13000: the device or merchant belongs to another PBO, or groupId is not the token's", type: EnvelopeDto })
@ApiResponse({ status: 429, description: 'code 16000: too many lookups of activation codes that are not the PBO\'s own; a bare code of another PBO answers as an unknown one', type: EnvelopeDto })
@Controller('api/v2/device')
export class DeviceV2Controller {
  constructor(
    private readonly devices: DeviceService,
    @Inject(GATEWAY_NAMESPACE) private readonly gatewayNamespace: string,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Devices and activation codes of a merchant (pageSize default 10, -1 returns all)' })
  @ApiEnvelopePage(LegacyDeviceDto)
  async list(@GroupId() groupId: string, @Query() query: LegacyDeviceListQueryDto): Promise<Envelope<Page<LegacyDeviceDto>>> {
    const page = await this.devices.list(
      groupId,
      query.mchId,
      { deviceId: query.deviceId, deviceType: query.deviceType },
      query.toPageRequest(LEGACY_PAGE_SIZE),
    );
    return ok({ ...page, records: page.records.map((device) => toLegacyDevice(device, this.gatewayNamespace)) });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Generate an activation code (same activation profile and gateway push as v1)' })
  @ApiEnvelope(LegacyCreatedCodeDto)
  @ApiResponse({ status: 503, description: 'code 15000: the host connector did not say which host an acquirer address reaches (terminal ownership); nothing was saved', type: EnvelopeDto })
  async create(@GroupId() groupId: string, @Body() body: LegacyDeviceCreateDto): Promise<Envelope<LegacyCreatedCodeDto>> {
    checkBodyGroup(body.groupId, groupId);
    const { create, everyAcquirer } = toDeviceCreate(body);
    const { activationCode } = await this.devices.create(groupId, create, everyAcquirer);
    return ok({ id: codeIdOf(activationCode), activationCode });
  }

  @Put(':deviceId')
  @ApiOperation({ summary: 'Update a device: omitted fields stay, null clears' })
  @ApiEnvelope()
  @ApiResponse({ status: 503, description: 'code 15000: the host connector did not say which host an acquirer address reaches (terminal ownership); nothing was saved', type: EnvelopeDto })
  async update(@GroupId() groupId: string, @Param('deviceId') deviceId: string, @Body() body: LegacyDeviceUpdateDto): Promise<Envelope<never>> {
    checkBodyGroup(body.groupId, groupId);
    const { update, everyAcquirer } = toDeviceUpdate(body);
    await this.devices.update(groupId, deviceId, update, everyAcquirer);
    return ok();
  }

  @Delete(':deviceId')
  @ApiOperation({ summary: 'CD- id: delete the code; device id with deviceStatus 2: log out, 3: decommission' })
  @ApiEnvelope()
  async delete(@GroupId() groupId: string, @Param('deviceId') deviceId: string, @Query() query: DeviceDeleteQueryDto): Promise<Envelope<never>> {
    await this.devices.delete(groupId, deviceId, query.deviceStatus as '2' | '3' | undefined);
    return ok();
  }
}
