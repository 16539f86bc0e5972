/** The error page a read-out shows instead of JSON when its page was asked for (`html` in the query). */
export const error = {
  titles: {
    invalid: 'Demande impossible',
    notFound: 'Page introuvable',
    unavailable: 'Service indisponible',
    internal: 'Erreur de la station',
  },
  explanations: {
    invalid: 'La station n’a pas pu traiter cette demande : vérifiez ce que vous avez saisi.',
    notFound: 'Cette adresse ne correspond à rien sur cette station.',
    unavailable:
      'Un service dont dépend la station (indexeur Ğ1, stockage, relais…) ne répond pas. Réessayez dans un moment.',
    internal: 'Quelque chose a échoué dans la station. Réessayez plus tard ou prévenez son opérateur.',
  },
  status: 'Statut',
  detail: 'Détail',
  code: 'Code',
  back: 'Revenir à la page',
  home: 'Accueil',
};
