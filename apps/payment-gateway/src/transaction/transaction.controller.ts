import { ApiProblem, GroupId } from '@app/common';
import { GatewayTransactionV1 } from '@app/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GatewayApi } from '../shared/gateway-api';
import { GATEWAY_ROUTE_PREFIX } from '../shared/namespace';
import { TransactionDto } from './dto/transaction.dto';
import { TransactionViews } from './transaction-views';

@ApiTags('gateway transactions (v1)')
@GatewayApi()
@Controller(`${GATEWAY_ROUTE_PREFIX}/transaction`)
export class TransactionController {
  constructor(private readonly transactions: TransactionViews) {}

  @Get('posReference/:posReference')
  @ApiOperation({ summary: "The PBO's newest transaction with this posReference" })
  @ApiOkResponse({ type: TransactionDto })
  getByPosReference(@GroupId() groupId: string, @Param('posReference') posReference: string): Promise<GatewayTransactionV1> {
    return this.transactions.getByPosReference(groupId, posReference);
  }

  @Get(':tranId')
  @ApiOperation({ summary: 'One transaction with its actions' })
  @ApiOkResponse({ type: TransactionDto })
  @ApiProblem({ status: 403, description: 'the transaction belongs to another PBO' })
  get(@GroupId() groupId: string, @Param('tranId') tranId: string): Promise<GatewayTransactionV1> {
    return this.transactions.get(groupId, tranId);
  }
}
