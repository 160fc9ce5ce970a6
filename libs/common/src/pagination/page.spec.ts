import { pageRequest, toPage } from './page';

describe('pagination', () => {
  it('should default to page 1 of the given size', () => {
    expect(pageRequest(undefined, undefined, 20)).toEqual({ pageNumber: 1, pageSize: 20, offset: 0, limit: 20 });
    expect(pageRequest(undefined, undefined, 10).limit).toBe(10);
  });

  it('should turn pageSize -1 into one page holding everything', () => {
    const request = pageRequest(3, -1);
    expect(request).toEqual({ pageNumber: 1, pageSize: -1, offset: 0, limit: null });
    expect(toPage(request, [1, 2, 3], 3)).toEqual({ total: 3, current: 1, hasNext: false, records: [1, 2, 3] });
  });

  it('should say hasNext while records remain after the page', () => {
    expect(toPage(pageRequest(2, 2), ['c', 'd'], 5)).toEqual({ total: 5, current: 2, hasNext: true, records: ['c', 'd'] });
    expect(toPage(pageRequest(3, 2), ['e'], 5).hasNext).toBe(false);
  });
});
