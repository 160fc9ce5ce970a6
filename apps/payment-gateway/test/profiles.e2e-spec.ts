import { LOCAL_TIME_FORMATS } from '@app/contracts';
import { invalidMid, invalidTid, unique, validMid, validTid } from '@app/testing';
import fc from 'fast-check';
import { acceptanceBody, createProfile, ProblemView, ProfilePageView, ProfileView, ProfileWithAcptView, profileBody } from './factories';
import { bodyOf, expectProblem, GATEWAY_BASE, GatewayClient, GatewayTestApp, startGateway } from './support';

/** The profile API's rules (spec sections 1 to 4), over HTTP as a PBO uses them. */

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

describe('gateway profiles', () => {
  let app: GatewayTestApp;
  let pbo: GatewayClient;
  let otherPbo: GatewayClient;

  beforeAll(async () => {
    app = await startGateway();
    pbo = await app.newPbo();
    otherPbo = await app.newPbo();
  });

  afterAll(() => app.close());

  describe('POST /profiles', () => {
    it('should create an ACTIVE profile and answer 201 with Location /profiles/<id>', async () => {
      const body = profileBody();
      const response = await pbo.post('/profiles', body);

      const profile = bodyOf<ProfileWithAcptView>(response, 201);
      expect(profile.profileId).toMatch(/^prof_[A-Za-z0-9_-]{22}$/);
      expect(response.headers.get('location')).toBe(`/profiles/${profile.profileId}`);
      expect(profile).toMatchObject({
        profileName: body.profileName,
        providerReference: body.providerReference,
        merchantName: body.merchantName,
        merchantAddr: body.merchantAddr,
        mcc: body.mcc,
        countryCode: body.countryCode,
        currency: body.currency,
        entityStatus: 'ACTIVE',
        updatedAt: null,
      });
    });

    it('should create the listed acceptances ACTIVE, with acptIds of their own', async () => {
      const acceptance = acceptanceBody();
      const profile = await createProfile(pbo, { acceptances: [acceptance] });

      expect(profile.acceptances).toEqual([
        {
          acptId: expect.stringMatching(/^acpt_[A-Za-z0-9_-]{22}$/) as string,
          ...acceptance,
          entityStatus: 'ACTIVE',
          createdAt: expect.stringMatching(TIMESTAMP) as string,
          updatedAt: null,
        },
      ]);
    });

    it('should show timestamps in ISO 8601 with fractional seconds and a +00:00 offset', async () => {
      const profile = await createProfile(pbo);

      expect(profile.createdAt).toMatch(TIMESTAMP);
      expect(Math.abs(Date.parse(profile.createdAt) - Date.now())).toBeLessThan(60_000);
    });

    it('should route each payment method to the first acceptance that supports it (acptSelection)', async () => {
      const profile = await createProfile(pbo, {
        acceptances: [acceptanceBody({ supportedPayments: ['VISA', 'MASTERCARD'] }), acceptanceBody({ supportedPayments: ['VISA', 'AMEX'] })],
      });

      const [first, second] = profile.acceptances.map((acceptance) => acceptance.acptId);
      expect(profile.acptSelection).toEqual({ [first]: ['VISA', 'MASTERCARD'], [second]: ['AMEX'] });
    });

    it('should update and bind an acceptance the PBO already has when the request names its acptId', async () => {
      const existing = await createProfile(pbo);
      const acptId = existing.acceptances[0].acptId;

      const profile = await createProfile(pbo, { acceptances: [acceptanceBody({ acptId, primaryMid: 'MIDNEW' })] });

      expect(profile.acceptances[0]).toMatchObject({ acptId, primaryMid: 'MIDNEW', updatedAt: expect.stringMatching(TIMESTAMP) as string });
      const shared = bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${existing.profileId}`));
      expect(shared.acceptances[0]).toMatchObject({ acptId, primaryMid: 'MIDNEW' });
    });

    it('should create a new acceptance when the acptId is not known', async () => {
      const profile = await createProfile(pbo, { acceptances: [acceptanceBody({ acptId: 'acpt_doesNotExist' })] });

      expect(profile.acceptances[0].acptId).toMatch(/^acpt_/);
      expect(profile.acceptances[0].acptId).not.toBe('acpt_doesNotExist');
    });

    it("should refuse another PBO's acptId with 403 and create nothing", async () => {
      const foreign = await createProfile(otherPbo);
      const before = bodyOf<ProfilePageView>(await pbo.get('/profiles')).totalSize;

      const response = await pbo.post('/profiles', profileBody({ acceptances: [acceptanceBody({ acptId: foreign.acceptances[0].acptId })] }));

      expectProblem(response, 403, /^acceptance acpt_\S+ belongs to another PBO$/);
      expect(bodyOf<ProfilePageView>(await pbo.get('/profiles')).totalSize).toBe(before);
      expect(bodyOf<ProfileWithAcptView>(await otherPbo.get(`/profiles/${foreign.profileId}`)).acceptances).toEqual(foreign.acceptances);
    });

    it('should refuse a providerReference another profile of the PBO has with 409', async () => {
      const existing = await createProfile(pbo);

      const response = await pbo.post('/profiles', profileBody({ providerReference: existing.providerReference }));

      expectProblem(response, 409, /^providerReference \S+ is already used by another profile of this PBO$/);
    });

    it('should let exactly one of two concurrent creates with the same providerReference win, the other 409', async () => {
      const providerReference = unique('race-');

      const responses = await Promise.all([pbo.post('/profiles', profileBody({ providerReference })), pbo.post('/profiles', profileBody({ providerReference }))]);

      expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    });

    it('should allow two PBOs the same providerReference', async () => {
      const mine = await createProfile(pbo);

      const theirs = await createProfile(otherPbo, { providerReference: mine.providerReference });

      expect(theirs.providerReference).toBe(mine.providerReference);
    });

    it('should give an acceptance without extraParams an empty object, and without tags null', async () => {
      const { extraParams: _extraParams, tags: _tags, ...bare } = acceptanceBody();

      const profile = await createProfile(pbo, { acceptances: [bare] });

      expect(profile.acceptances[0]).toMatchObject({ extraParams: {}, tags: null });
    });

    it('should store nothing but the required fields when the optional ones are omitted', async () => {
      const profile = await createProfile(pbo, { providerReference: undefined, merchantAddr: undefined, mcc: undefined, countryCode: undefined, acceptances: [] });

      expect(profile).toMatchObject({ providerReference: null, merchantAddr: null, mcc: null, countryCode: null, acceptances: [], acptSelection: {} });
    });

    it('should refuse acquirer parameters the host cannot take (acqInstId, subMchDba) as merchant-management does, naming the key, and take valid ones', async () => {
      const badAcqInstId = fc.oneof(fc.stringMatching(/^[0-9]{0,4}[A-Za-z ][0-9A-Za-z]{0,4}$/), fc.stringMatching(/^[0-9]{12,16}$/), fc.constant(''));
      // Blank once a host gets it (field 43 takes printable ASCII): another script, zero-width or combining characters alone.
      const blankOnTheWire = fc.constantFrom('北京饭店', '\u200b\u200d', '\u0301\u0308', '🍜');
      const badSubMchDba = fc.oneof(fc.stringMatching(/^[ \t]{1,5}$/), fc.stringMatching(/^[a-z]{0,3}\x07[a-z]{0,3}$/), fc.string({ minLength: 65, maxLength: 80 }), blankOnTheWire);
      await fc.assert(
        fc.asyncProperty(fc.oneof(badAcqInstId.map((acqInstId) => ({ acqInstId })), badSubMchDba.map((subMchDba) => ({ subMchDba }))), async (extraParams) => {
          const response = await pbo.post('/profiles', profileBody({ acceptances: [acceptanceBody({ extraParams })] }));

          const [key] = Object.keys(extraParams);
          expectProblem(response, 400, new RegExp(`^acceptances\\[0\\]\\.extraParams\\.${key} must be 1 to `));
        }),
        { numRuns: 15 },
      );
      const fine = await createProfile(pbo, { acceptances: [acceptanceBody({ extraParams: { acqInstId: '12345678901', subMchDba: 'Kopi Corner', other: 'free' } })] });
      expect(fine.acceptances[0].extraParams).toEqual({ acqInstId: '12345678901', subMchDba: 'Kopi Corner', other: 'free' });
    });

    it('should refuse a merchant name that would reach the host blank in field 43, naming merchantName, and take one with accents', async () => {
      for (const merchantName of ['北京饭店', '\u200b\u200d', '——']) {
        expectProblem(await pbo.post('/profiles', profileBody({ merchantName })), 400, /^merchantName must carry at least one Latin letter or digit/);
      }
      expect(await createProfile(pbo, { merchantName: 'Café 北京' })).toMatchObject({ merchantName: 'Café 北京' });
    });

    it('should refuse the same acceptance listed twice, naming the repeat', async () => {
      const existing = await createProfile(pbo);
      const acptId = existing.acceptances[0].acptId;

      const response = await pbo.post('/profiles', profileBody({ acceptances: [acceptanceBody({ acptId }), acceptanceBody({ acptId })] }));

      expectProblem(response, 400, /^acceptances\[1\]\.acptId repeats acceptances\[0\]\.acptId$/);
    });
  });

  describe('timeZone', () => {
    it("should store the merchant's IANA time zone, show it, and clear it on a replace that omits it when no acceptance sends local time", async () => {
      const created = await createProfile(pbo, { timeZone: 'Asia/Kuala_Lumpur' });
      expect(created.timeZone).toBe('Asia/Kuala_Lumpur');
      expect(bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${created.profileId}`)).timeZone).toBe('Asia/Kuala_Lumpur');
      const replaced = bodyOf<ProfileWithAcptView>(await pbo.put(`/profiles/${created.profileId}`, profileBody({ timeZone: undefined, acceptances: [acceptanceBody({ hostMessageFormat: 'MPGS_AP' })] })));
      expect(replaced.timeZone).toBeNull();
    });

    it('should refuse a create or replace without timeZone, naming it and the acceptance, when an acceptance sends hosts local time, and store nothing', async () => {
      const created = await createProfile(pbo);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...LOCAL_TIME_FORMATS),
          fc.constantFrom('MOCK', 'MPGS_AP'),
          fc.nat({ max: 2 }),
          fc.constantFrom(undefined, null),
          fc.boolean(),
          async (format, other, others, timeZone, replace) => {
            const acceptances = [...Array.from({ length: others }, () => acceptanceBody({ hostMessageFormat: other })), acceptanceBody({ hostMessageFormat: format })];
            const body = profileBody({ timeZone, acceptances });
            const response = replace ? await pbo.put(`/profiles/${created.profileId}`, body) : await pbo.post('/profiles', body);
            expectProblem(response, 400, new RegExp(`^timeZone is required: acceptances\\[${others}\\] is ${format}, which sends hosts the merchant's local date and time`));
            expect(bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${created.profileId}`))).toMatchObject({ timeZone: 'Asia/Kuala_Lumpur', profileName: created.profileName });
          },
        ),
        { numRuns: 12 },
      );
    });

    it('should take a profile without timeZone whose acceptances send no local time (MOCK, MPGS_AP, none)', async () => {
      for (const acceptances of [[], [acceptanceBody({ hostMessageFormat: 'MOCK' })], [acceptanceBody({ hostMessageFormat: 'MPGS_AP' })]]) {
        expect(await createProfile(pbo, { timeZone: null, acceptances })).toMatchObject({ timeZone: null });
      }
    });

    it('should refuse a time zone that is not IANA with 400 naming timeZone', async () => {
      expectProblem(await pbo.post('/profiles', profileBody({ timeZone: 'GMT+8 Kuala Lumpur' })), 400, /^timeZone must be an IANA time zone such as Asia\/Kuala_Lumpur$/);
    });
  });

  describe('MID and TID (fields 42 and 41)', () => {
    it('should refuse with 400, naming the field, every MID a host cannot take, on create and on replace', async () => {
      const created = await createProfile(pbo);
      await fc.assert(
        fc.asyncProperty(invalidMid(), fc.boolean(), async (mid, replace) => {
          const body = profileBody({ acceptances: [acceptanceBody({ primaryMid: mid })] });
          const response = replace ? await pbo.put(`/profiles/${created.profileId}`, body) : await pbo.post('/profiles', body);
          expectProblem(response, 400, /^acceptances\[0\]\.primaryMid must be 1 to 15 letters, digits or spaces, not spaces only \(field 42\)$/);
        }),
        { numRuns: 25 },
      );
    });

    it('should refuse with 400, naming the field, every TID a host cannot take', async () => {
      await fc.assert(
        fc.asyncProperty(invalidTid(), async (tid) => {
          const response = await pbo.post('/profiles', profileBody({ acceptances: [acceptanceBody({ primaryTid: tid })] }));
          expectProblem(response, 400, /^acceptances\[0\]\.primaryTid must be 1 to 8 letters or digits \(field 41\)$/);
        }),
        { numRuns: 25 },
      );
    });

    it('should accept and store every MID and TID a host takes', async () => {
      await fc.assert(
        fc.asyncProperty(validMid(), validTid(), async (mid, tid) => {
          const profile = await createProfile(pbo, { acceptances: [acceptanceBody({ primaryMid: mid, primaryTid: tid })] });
          expect(profile.acceptances[0]).toMatchObject({ primaryMid: mid, primaryTid: tid });
        }),
        { numRuns: 10 },
      );
    });
  });

  describe('GET /profiles/{profileId}', () => {
    it('should answer the profile with its acceptances and acptSelection, as created', async () => {
      const created = await createProfile(pbo);

      expect(bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${created.profileId}`))).toEqual(created);
    });

    it('should answer 404 for a profile that does not exist', async () => {
      expectProblem(await pbo.get('/profiles/prof_doesNotExist0000000000'), 404, /^profile prof_doesNotExist0000000000 does not exist$/);
    });

    it('should answer 404 for a path id that cannot be a profile id', async () => {
      expectProblem(await pbo.get('/profiles/42'), 404, /does not exist/);
    });

    it("should answer 403 for another PBO's profile", async () => {
      const foreign = await createProfile(otherPbo);

      expectProblem(await pbo.get(`/profiles/${foreign.profileId}`), 403, /^profile prof_\S+ belongs to another PBO$/);
    });
  });

  describe('GET /profiles/providerReference/{providerReference}', () => {
    it('should answer the profile of that providerReference with its acceptances', async () => {
      const created = await createProfile(pbo);

      expect(bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/providerReference/${encodeURIComponent(created.providerReference!)}`))).toEqual(created);
    });

    it('should answer 404 for a providerReference only another PBO uses', async () => {
      const foreign = await createProfile(otherPbo);

      expectProblem(await pbo.get(`/profiles/providerReference/${encodeURIComponent(foreign.providerReference!)}`), 404, /^no profile has providerReference /);
    });
  });

  describe('PUT /profiles/{profileId}', () => {
    it('should replace every field, clear the omitted optional ones and set updatedAt', async () => {
      const created = await createProfile(pbo);

      const replaced = bodyOf<ProfileWithAcptView>(
        await pbo.put(`/profiles/${created.profileId}`, { profileName: 'Renamed', merchantName: 'New Name Sdn Bhd', currency: 'SGD', acceptances: [] }),
      );

      expect(replaced).toMatchObject({
        profileId: created.profileId,
        profileName: 'Renamed',
        merchantName: 'New Name Sdn Bhd',
        currency: 'SGD',
        providerReference: null,
        merchantAddr: null,
        mcc: null,
        countryCode: null,
        entityStatus: 'ACTIVE',
        createdAt: created.createdAt,
        updatedAt: expect.stringMatching(TIMESTAMP) as string,
      });
    });

    it('should upsert the passed acceptances and unbind the others', async () => {
      const created = await createProfile(pbo, { acceptances: [acceptanceBody(), acceptanceBody()] });
      const [kept, dropped] = created.acceptances;
      const fresh = acceptanceBody({ acptName: 'Fresh' });

      const replaced = bodyOf<ProfileWithAcptView>(
        await pbo.put(`/profiles/${created.profileId}`, profileBody({ acceptances: [acceptanceBody({ acptId: kept.acptId, acptName: 'Renamed', primaryTid: 'TIDNEW' }), fresh] })),
      );

      expect(replaced.acceptances[0].acptId).toBe(kept.acptId);
      expect(replaced.acceptances.map((a) => a.acptId)).not.toContain(dropped.acptId);
      expect(replaced.acceptances.map((a) => [a.acptName, a.primaryTid])).toEqual([
        ['Renamed', 'TIDNEW'],
        ['Fresh', fresh.primaryTid],
      ]);
    });

    it('should keep an unbound acceptance, so naming its acptId binds it again', async () => {
      const created = await createProfile(pbo);
      const acptId = created.acceptances[0].acptId;
      bodyOf(await pbo.put(`/profiles/${created.profileId}`, profileBody({ acceptances: [] })));

      const rebound = bodyOf<ProfileWithAcptView>(await pbo.put(`/profiles/${created.profileId}`, profileBody({ acceptances: [acceptanceBody({ acptId })] })));

      expect(rebound.acceptances.map((a) => a.acptId)).toEqual([acptId]);
    });

    it('should unbind every acceptance on an empty list', async () => {
      const created = await createProfile(pbo, { acceptances: [acceptanceBody(), acceptanceBody()] });

      const replaced = bodyOf<ProfileWithAcptView>(await pbo.put(`/profiles/${created.profileId}`, profileBody({ acceptances: [] })));

      expect(replaced.acceptances).toEqual([]);
      expect(replaced.acptSelection).toEqual({});
      expect(bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${created.profileId}`)).acceptances).toEqual([]);
    });

    it("should refuse another PBO's profile with 403 and leave it unchanged", async () => {
      const foreign = await createProfile(otherPbo);

      expectProblem(await pbo.put(`/profiles/${foreign.profileId}`, profileBody()), 403, /belongs to another PBO/);
      expect(bodyOf<ProfileWithAcptView>(await otherPbo.get(`/profiles/${foreign.profileId}`))).toEqual(foreign);
    });

    it('should answer 404 for a profile that does not exist', async () => {
      expectProblem(await pbo.put('/profiles/prof_doesNotExist0000000000', profileBody()), 404, /does not exist/);
    });

    it('should refuse a providerReference another profile of the PBO has with 409', async () => {
      const first = await createProfile(pbo);
      const second = await createProfile(pbo);

      expectProblem(await pbo.put(`/profiles/${second.profileId}`, profileBody({ providerReference: first.providerReference })), 409, /already used/);
    });
  });

  describe('PATCH /profiles/{profileId}/status', () => {
    it('should disable a profile and answer it without acceptances', async () => {
      const created = await createProfile(pbo);

      const disabled = bodyOf<ProfileView & { acceptances?: unknown }>(await pbo.patch(`/profiles/${created.profileId}/status`, { status: 'DISABLED' }));

      expect(disabled).toMatchObject({ profileId: created.profileId, entityStatus: 'DISABLED', updatedAt: expect.stringMatching(TIMESTAMP) as string });
      expect(disabled.acceptances).toBeUndefined();
      expect(bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${created.profileId}`)).entityStatus).toBe('DISABLED');
    });

    it('should activate a disabled profile again', async () => {
      const created = await createProfile(pbo);
      bodyOf(await pbo.patch(`/profiles/${created.profileId}/status`, { status: 'DISABLED' }));

      expect(bodyOf<ProfileView>(await pbo.patch(`/profiles/${created.profileId}/status`, { status: 'ACTIVE' })).entityStatus).toBe('ACTIVE');
    });

    it('should refuse a status other than ACTIVE or DISABLED, naming the field', async () => {
      const created = await createProfile(pbo);

      expectProblem(await pbo.patch(`/profiles/${created.profileId}/status`, { status: 'PAUSED' }), 400, /^status must be one of the following values: ACTIVE, DISABLED$/);
    });

    it("should refuse another PBO's profile with 403", async () => {
      const foreign = await createProfile(otherPbo);

      expectProblem(await pbo.patch(`/profiles/${foreign.profileId}/status`, { status: 'DISABLED' }), 403, /belongs to another PBO/);
      expect(bodyOf<ProfileWithAcptView>(await otherPbo.get(`/profiles/${foreign.profileId}`)).entityStatus).toBe('ACTIVE');
    });
  });

  describe('x-service-request-id', () => {
    it('should name every response, success or problem, with its own req_ id', async () => {
      const created = await createProfile(pbo);
      const responses = [
        await pbo.get('/profiles'),
        await pbo.get(`/profiles/${created.profileId}`),
        await pbo.post('/profiles', profileBody()),
        await pbo.put(`/profiles/${created.profileId}`, profileBody()),
        await pbo.patch(`/profiles/${created.profileId}/status`, { status: 'ACTIVE' }),
        await pbo.get('/profiles/prof_doesNotExist0000000000'),
        await app.anonymous.get(`${GATEWAY_BASE}/profiles`),
      ];

      const ids = responses.map((response) => response.headers.get('x-service-request-id'));
      for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('should repeat the request id of a problem in its body', async () => {
      const response = await pbo.get('/profiles/prof_doesNotExist0000000000');

      expect((response.body as ProblemView).requestId).toBe(response.headers.get('x-service-request-id'));
    });
  });
});
