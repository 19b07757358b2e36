import { emailKey, isNoteOfLead, leadNote, phoneKey, renderLeadTemplate } from '../../../../src/engine/outbound/flows/leads/lead-values';
import type { ProxyLead } from '../../../../src/tracker/types/proxy-leads.types';

const lead: ProxyLead = {
  id: '17', title: 'Заявка с сайта', text: 'Нужен диван', name: 'Иван', phone: '+7 (912) 000-11-22', email: 'Ivan@Example.RU',
  tracker: '1000005', creation_date: '2026-11-27 10:00:00', order_id: '',
};

describe('lead values', () => {
  it('reads +7 (912) 000-11-22, 89120001122, 79120001122 and 9120001122 as one number', () => {
    expect(new Set(['+7 (912) 000-11-22', '89120001122', '79120001122', '8 912 000 11 22', '9120001122'].map(phoneKey))).toEqual(new Set(['79120001122']));
    expect(phoneKey('+49 30 901820')).toBe('4930901820');
    expect(phoneKey('')).toBeNull();
    expect(phoneKey('12')).toBeNull();
  });

  it('reads e-mails in any case as one; text without @ is none', () => {
    expect(emailKey(' Ivan@Example.RU ')).toBe('ivan@example.ru');
    expect(emailKey('n/a')).toBeNull();
  });

  it('renders {{field}} of the proxy lead; an unknown one is empty', () => {
    expect(renderLeadTemplate('{{title}}: {{ name }} ({{tracker}}){{nope}}', lead)).toBe('Заявка с сайта: Иван (1000005)');
  });

  it('writes a note with the title, the text, the source and the visit', () => {
    expect(leadNote(lead).split('\n')).toEqual([
      'Заявка с сайта', 'Нужен диван', "Source: the service's proxy lead 17 (Иван, +7 (912) 000-11-22, Ivan@Example.RU), 2026-11-27 10:00:00 UTC", 'Visit: 1000005',
    ]);
  });

  it('finds the lead\'s note by its proxy lead id, as plain text or as the HTML a CRM made of it, never a longer id', () => {
    const note = leadNote(lead);
    expect(isNoteOfLead(note, '17')).toBe(true);
    const html = `<p>${note.split('\n').map((line) => line.replace(/'/g, '&#39;').replace(/ /g, '&nbsp;')).join('<br/>')}</p>`;
    expect(isNoteOfLead(html, '17')).toBe(true);
    expect(isNoteOfLead('<div>Source: the service&#x27;s <b>proxy</b> <i>lead</i> 17, 2026-11-27</div>', '17')).toBe(true);
    expect(isNoteOfLead(note, '1')).toBe(false);
    expect(isNoteOfLead(note, '170')).toBe(false);
    expect(isNoteOfLead(leadNote({ ...lead, id: '170' }), '17')).toBe(false);
    expect(isNoteOfLead('Called back, all fine', '17')).toBe(false);
  });
});
