import { ApiProblem, GroupId } from '@app/common';
import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { formatGatewayTimestamp } from '../shared/timestamps';
import { GatewayApi } from '../shared/gateway-api';
import { GATEWAY_ROUTE_PREFIX } from '../shared/namespace';
import { DeliveryListQueryDto, WebhookDeliveryPageDto, WebhookSecretDto } from './dto/webhook.dto';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookSecret, WebhookSecretService } from './webhook-secret.service';

const SIGNING =
  'Every delivery is a POST of the transaction JSON (as GET /transaction/{tranId} answers it) to its callbackUrl with Softpos-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> under this secret, Softpos-Delivery-Id (the same on every attempt) and Softpos-Transaction-Version.';

function secretDto(secret: WebhookSecret): WebhookSecretDto {
  return { secret: secret.secret, createdAt: formatGatewayTimestamp(secret.createdAt) };
}

@ApiTags('gateway webhooks (v1)')
@GatewayApi()
@ApiProblem({ status: 400, description: 'invalid input; detail names the field' })
@Controller(`${GATEWAY_ROUTE_PREFIX}/webhooks`)
export class WebhookController {
  constructor(
    private readonly secrets: WebhookSecretService,
    private readonly deliveries: WebhookDeliveryService,
  ) {}

  @Get('secret')
  @ApiOperation({ summary: "The PBO's webhook signing secret (made on first use)", description: SIGNING })
  @ApiOkResponse({ type: WebhookSecretDto })
  @ApiProblem({ status: 409, description: 'the secret was sealed under another data key: rotate it' })
  async getSecret(@GroupId() groupId: string): Promise<WebhookSecretDto> {
    return secretDto(await this.secrets.current(groupId));
  }

  @Post('secret/rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the webhook signing secret',
    description: 'Every attempt from now on, retries of earlier deliveries included, is signed with the new secret only; the old one no longer signs anything.',
  })
  @ApiOkResponse({ type: WebhookSecretDto })
  async rotateSecret(@GroupId() groupId: string): Promise<WebhookSecretDto> {
    return secretDto(await this.secrets.rotate(groupId));
  }

  @Get('deliveries')
  @ApiOperation({ summary: "The PBO's webhook deliveries, newest first, with their attempts and last failure" })
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  @ApiProblem({ status: 403, description: 'tranId names a transaction of another PBO' })
  listDeliveries(@GroupId() groupId: string, @Query() query: DeliveryListQueryDto): Promise<WebhookDeliveryPageDto> {
    return this.deliveries.list(groupId, query);
  }
}
