import { acceptanceSelection } from './acceptance-selection';

describe('acceptanceSelection', () => {
  it('should route each payment method to the first acceptance that supports it', () => {
    const selection = acceptanceSelection([
      { id: 'acpt_a', supportedPayments: ['VISA', 'MASTERCARD'], entityStatus: 'ACTIVE' },
      { id: 'acpt_b', supportedPayments: ['VISA', 'AMEX'], entityStatus: 'ACTIVE' },
    ]);

    expect(selection).toEqual({ acpt_a: ['VISA', 'MASTERCARD'], acpt_b: ['AMEX'] });
  });

  it('should list an acceptance that got no method with an empty list', () => {
    const selection = acceptanceSelection([
      { id: 'acpt_a', supportedPayments: ['VISA'], entityStatus: 'ACTIVE' },
      { id: 'acpt_b', supportedPayments: ['VISA'], entityStatus: 'ACTIVE' },
    ]);

    expect(selection).toEqual({ acpt_a: ['VISA'], acpt_b: [] });
  });

  it('should route nothing to a disabled acceptance', () => {
    const selection = acceptanceSelection([
      { id: 'acpt_a', supportedPayments: ['VISA'], entityStatus: 'DISABLED' },
      { id: 'acpt_b', supportedPayments: ['VISA'], entityStatus: 'ACTIVE' },
    ]);

    expect(selection).toEqual({ acpt_a: [], acpt_b: ['VISA'] });
  });

  it('should answer an empty selection for a profile without acceptances', () => {
    expect(acceptanceSelection([])).toEqual({});
  });
});
