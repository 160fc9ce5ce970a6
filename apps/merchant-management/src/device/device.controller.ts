import { ApiEnvelope, ApiEnvelopeErrors, ApiEnvelopeOrNull, ApiEnvelopePage, Envelope, EnvelopeDto, GroupId, ok, Page, PboApi } from '@app/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DeviceService } from './device.service';
import { toCreatedCodeDto, toDeviceDto } from './device.view';
import {
  CreatedCodeDto,
  DeviceCodeEmailDto,
  DeviceCreateDto,
  DeviceDeleteQueryDto,
  DeviceDto,
  DeviceEmvDto,
  DeviceListQueryDto,
  DeviceUpdateDto,
} from './dto/device.dto';

@ApiTags('devices (v1)')
@PboApi()
@ApiEnvelopeErrors(400, 404, 409)
@ApiResponse({
  status: 403,
  description:
    "code 13000: the device (by device id) or merchant belongs to another PBO; another PBO's activation code, bare or as a CD- id, answers as an unknown one",
  type: EnvelopeDto,
})
@ApiResponse({
  status: 429,
  description: "code 16000: too many lookups of activation codes that are not the PBO's own; a bare code of another PBO answers as an unknown one",
  type: EnvelopeDto,
})
@Controller('api/openapi/v1/device')
export class DeviceController {
  constructor(private readonly devices: DeviceService) {}

  @Get()
  @ApiOperation({ summary: 'Devices and activation codes of a merchant (pageSize -1 returns all)' })
  @ApiEnvelopePage(DeviceDto)
  async list(@GroupId() groupId: string, @Query() query: DeviceListQueryDto): Promise<Envelope<Page<DeviceDto>>> {
    const page = await this.devices.list(groupId, query.mchId, { deviceId: query.deviceId, deviceType: query.deviceType }, query.toPageRequest(20));
    return ok({ ...page, records: page.records.map(toDeviceDto) });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Generate an activation code; pushes the activation profile to the gateway when an acquirer matches' })
  @ApiEnvelope(CreatedCodeDto)
  @ApiResponse({ status: 503, description: 'code 15000: the host connector did not say which host an acquirer address reaches (terminal ownership); nothing was saved', type: EnvelopeDto })
  async create(@GroupId() groupId: string, @Body() body: DeviceCreateDto): Promise<Envelope<CreatedCodeDto>> {
    return ok(toCreatedCodeDto(await this.devices.create(groupId, body)));
  }

  @Post('code')
  @HttpCode(200)
  @ApiOperation({ summary: 'E-mail the existing activation code' })
  @ApiEnvelope()
  async email(@GroupId() groupId: string, @Body() body: DeviceCodeEmailDto): Promise<Envelope<never>> {
    await this.devices.emailCode(groupId, body.deviceId, body.email);
    return ok();
  }

  @Get('emv/:deviceId')
  @ApiOperation({ summary: 'The EMV parameters and AIDs now pushed to the device' })
  @ApiEnvelope(DeviceEmvDto)
  async emv(@GroupId() groupId: string, @Param('deviceId') deviceId: string): Promise<Envelope<DeviceEmvDto>> {
    return ok(await this.devices.emv(groupId, deviceId));
  }

  @Get(':deviceId')
  @ApiOperation({ summary: 'A device by device id, CD- code id or bare code; data null when it does not exist' })
  @ApiEnvelopeOrNull(DeviceDto, 'SUCCESS; data null when no such device or code exists')
  async get(@GroupId() groupId: string, @Param('deviceId') deviceId: string): Promise<Envelope<DeviceDto | null>> {
    const view = await this.devices.get(groupId, deviceId);
    return ok(view && toDeviceDto(view));
  }

  @Put(':deviceId')
  @ApiOperation({ summary: 'Update a device: omitted fields stay, null clears' })
  @ApiEnvelope()
  @ApiResponse({ status: 503, description: 'code 15000: the host connector did not say which host an acquirer address reaches (terminal ownership); nothing was saved', type: EnvelopeDto })
  async update(@GroupId() groupId: string, @Param('deviceId') deviceId: string, @Body() body: DeviceUpdateDto): Promise<Envelope<never>> {
    await this.devices.update(groupId, deviceId, body);
    return ok();
  }

  @Delete(':deviceId/idle')
  @ApiOperation({ summary: 'Keep the code and free it for re-activation' })
  @ApiEnvelope()
  async idle(@GroupId() groupId: string, @Param('deviceId') deviceId: string): Promise<Envelope<never>> {
    await this.devices.idle(groupId, deviceId);
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
